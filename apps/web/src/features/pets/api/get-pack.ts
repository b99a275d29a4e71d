import { queryOptions, useQuery } from '@tanstack/react-query';
import { packResponseSchema, type Pack } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/dogs/{id}/pack: the pet's owner and pack; its owner also gets the open invitations. */
export async function getPack(dogId: string, signal?: AbortSignal): Promise<Pack> {
  const { pack } = await api.get(
    `/dogs/${encodeURIComponent(dogId)}/pack`,
    packResponseSchema,
    signal,
  );
  return pack;
}

export const packKeys = { pet: (dogId: string) => ['pack', dogId] as const };

export const getPackQueryOptions = (dogId: string) =>
  queryOptions({
    queryKey: packKeys.pet(dogId),
    queryFn: ({ signal }) => getPack(dogId, signal),
    // It changes elsewhere (an invitee accepts in their own browser, a member leaves): asked
    // afresh each time the sheet opens, showing what was known meanwhile.
    staleTime: 0,
  });

export function usePack(dogId: string) {
  return useQuery(getPackQueryOptions(dogId));
}
