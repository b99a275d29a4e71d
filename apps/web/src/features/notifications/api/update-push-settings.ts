import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pushSettingsResponseSchema, type PushSettings } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPushSettingsQueryOptions } from './get-push-settings';

/** PUT /api/push/settings: the lowest heat level that pushes, and whether collar news does. */
export async function updatePushSettings(settings: PushSettings): Promise<PushSettings> {
  const { settings: saved } = await api.put('/push/settings', settings, pushSettingsResponseSchema);
  return saved;
}

export function useUpdatePushSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePushSettings,
    onSuccess: (saved) => queryClient.setQueryData(getPushSettingsQueryOptions().queryKey, saved),
  });
}
