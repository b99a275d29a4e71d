import { useMutation } from '@tanstack/react-query';
import { MESSAGES } from '@pawguard/shared';
import { env } from '@/config/env';
import { ApiError } from '@/lib/api-client';
import { authToken } from '@/lib/auth-token';

const FILE_NAME = 'pawguard-waitlist.csv';

async function errorFrom(response: Response): Promise<string> {
  try {
    const payload: unknown = await response.json();
    if (payload && typeof payload === 'object' && 'error' in payload) {
      const { error } = payload as { error: unknown };
      if (typeof error === 'string' && error.trim() !== '') return error;
    }
  } catch {
    // Not JSON: fall through to the generic message.
  }
  return MESSAGES.requestFailed;
}

/**
 * GET /api/admin/waitlist/export.csv (admin). The export needs the bearer token, which a
 * plain link cannot send, so the file is fetched, turned into an object URL and saved.
 * Same rules as the api-client: a 401 on a call made with a token ends the session.
 */
export async function fetchWaitlistCsv(): Promise<Blob> {
  const token = authToken.get();
  const headers: Record<string, string> = { Accept: 'text/csv' };
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}/admin/waitlist/export.csv`, { headers });
  } catch {
    throw new ApiError(MESSAGES.networkError, 0);
  }
  if (!response.ok) {
    if (response.status === 401 && token) {
      if (authToken.get() === token) authToken.expire();
      throw new ApiError(MESSAGES.authRequired, 401);
    }
    throw new ApiError(await errorFrom(response), response.status);
  }
  return response.blob();
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is no longer needed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export async function exportWaitlistCsv(): Promise<void> {
  saveBlob(await fetchWaitlistCsv(), FILE_NAME);
}

export function useExportWaitlistCsv() {
  return useMutation({ mutationFn: exportWaitlistCsv });
}
