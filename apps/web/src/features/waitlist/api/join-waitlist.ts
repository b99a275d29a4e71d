import { useMutation } from '@tanstack/react-query';
import { waitlistJoinResponseSchema, type WaitlistInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** POST /api/waitlist: 201 { success, message }; 409 for an e-mail already on the list. */
export async function joinWaitlist(input: WaitlistInput) {
  return api.post('/waitlist', input, waitlistJoinResponseSchema);
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist });
}
