import { queryOptions, useQuery } from '@tanstack/react-query';
import { escalationResponseSchema, type Escalation } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/**
 * GET /api/dogs/{id}/escalation: how many minutes a pet's DANGER and CRITICAL heat alerts may
 * go unacknowledged before they are sent again, "not yet acknowledged".
 */
export async function getEscalation(dogId: string, signal?: AbortSignal): Promise<Escalation> {
  const { escalation } = await api.get(
    `/dogs/${encodeURIComponent(dogId)}/escalation`,
    escalationResponseSchema,
    signal,
  );
  return escalation;
}

export const getEscalationQueryOptions = (dogId: string) =>
  queryOptions({
    queryKey: ['escalation', dogId] as const,
    queryFn: ({ signal }) => getEscalation(dogId, signal),
  });

export function useEscalation(dogId: string) {
  return useQuery(getEscalationQueryOptions(dogId));
}
