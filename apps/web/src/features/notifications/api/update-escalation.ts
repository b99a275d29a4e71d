import { useMutation, useQueryClient } from '@tanstack/react-query';
import { escalationResponseSchema, type Escalation } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getEscalationQueryOptions } from './get-escalation';

/** PUT /api/dogs/{id}/escalation: both minutes (1–120) for one pet. */
export async function updateEscalation({
  dogId,
  escalation,
}: {
  dogId: string;
  escalation: Escalation;
}): Promise<Escalation> {
  const { escalation: saved } = await api.put(
    `/dogs/${encodeURIComponent(dogId)}/escalation`,
    escalation,
    escalationResponseSchema,
  );
  return saved;
}

export function useUpdateEscalation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEscalation,
    onSuccess: (saved, { dogId }) =>
      queryClient.setQueryData(getEscalationQueryOptions(dogId).queryKey, saved),
  });
}
