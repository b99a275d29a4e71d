/** Rejects after `ms` with `message`, unless cancelled: a bound on a call that may hang. */
export function deadline(ms: number, message: string): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
