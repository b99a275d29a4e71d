import { queryOptions, useQuery } from '@tanstack/react-query';
import { packInvitationPreviewResponseSchema, type PackInvitationPreview } from '@pawguard/shared';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/pack/invitation: what an invitation's link offers (the pet, who invites, as what,
 * until when), before any sign-in; the token is the credential. A read, though sent as a POST
 * so the token stays out of URLs and logs.
 */
export async function getPackInvitation(token: string): Promise<PackInvitationPreview> {
  const { invitation } = await apiRequest('/pack/invitation', {
    method: 'POST',
    body: { token },
    schema: packInvitationPreviewResponseSchema,
    changesData: false,
  });
  return invitation;
}

export const getPackInvitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['pack-invitation', token] as const,
    queryFn: () => getPackInvitation(token),
    // A spent or expired link stays so: asking again changes nothing.
    retry: false,
    staleTime: Infinity,
  });

export function usePackInvitation(token: string | null) {
  return useQuery({ ...getPackInvitationQueryOptions(token ?? ''), enabled: token !== null });
}
