import { useMutation, useQueryClient } from '@tanstack/react-query';
import { goalResponseSchema, type Goal, type GoalInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { activityKeys } from './get-activity';

/** PUT /api/dogs/{id}/goal: minutes a day, or null to go back to the suggestion. */
export async function updateGoal(dogId: string, input: GoalInput): Promise<Goal> {
  const { goal } = await api.put(
    `/dogs/${encodeURIComponent(dogId)}/goal`,
    input,
    goalResponseSchema,
  );
  return goal;
}

/** Saves a dog's goal; its days ("met"), streak and insights are asked for again. */
export function useUpdateGoal(dogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activeMinutes: number | null) =>
      updateGoal(dogId, { active_minutes: activeMinutes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: activityKeys.dog(dogId) }),
  });
}
