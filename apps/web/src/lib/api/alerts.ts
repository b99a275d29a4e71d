import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  alertResponseSchema,
  alertsResponseSchema,
  type Alert,
  type Device,
} from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useLiveFallback } from '@/lib/realtime';

/** While the live stream is down, open alerts are polled as often as the header is (spec §9). */
const OPEN_ALERTS_POLL_MS = 10_000;

/** Every alert query lives under ['alerts'] (the live stream refetches them on an alert event). */
export const alertKeys = {
  all: ['alerts'] as const,
  device: (deviceId: string, resolved: boolean) => ['alerts', deviceId, resolved] as const,
};

/** A device's open (resolved=false) or past (resolved=true) alerts, newest first. */
export const deviceAlertsQueryOptions = (deviceId: string, resolved: boolean, limit = 100) =>
  queryOptions({
    queryKey: alertKeys.device(deviceId, resolved),
    queryFn: ({ signal }) =>
      api.get(
        `/devices/${encodeURIComponent(deviceId)}/alerts?resolved=${resolved}&limit=${limit}`,
        alertsResponseSchema,
        signal,
      ),
  });

export function useDeviceAlerts(deviceId: string, resolved: boolean) {
  return useQuery({
    ...deviceAlertsQueryOptions(deviceId, resolved),
    refetchInterval: useLiveFallback(OPEN_ALERTS_POLL_MS),
  });
}

/** Every open alert of the caller's devices (one call for a whole screen of cards). */
export const openAlertsQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'open'] as const,
    queryFn: ({ signal }) =>
      api.get('/alerts?resolved=false&limit=100', alertsResponseSchema, signal),
  });

export function useOpenAlerts() {
  return useQuery({
    ...openAlertsQueryOptions(),
    refetchInterval: useLiveFallback(OPEN_ALERTS_POLL_MS),
  });
}

export function useResolveAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (alert: Alert) =>
      api.post(
        `/devices/${encodeURIComponent(alert.device)}/alerts/${encodeURIComponent(alert.id)}/resolve`,
        undefined,
        alertResponseSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

/**
 * Acknowledges an open heat alert (decision 0037): it stays open and watched; its notifications
 * are read, so the bell's count changes too.
 */
export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (alert: Alert) =>
      api.post(
        `/devices/${encodeURIComponent(alert.device)}/alerts/${encodeURIComponent(alert.id)}/acknowledge`,
        undefined,
        alertResponseSchema,
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: alertKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['notifications'] }),
      ]),
  });
}

const RANK = { heat: 0, offline: 1, low_battery: 2, collar_off: 3, over_budget: 4 } as const;

/**
 * Heat first, then offline, low battery, collar off and readings refused: the order alerts
 * are shown in.
 */
export const byAlertRank = (a: Alert, b: Alert) => RANK[a.type] - RANK[b.type];

/** Open alerts grouped by device (its UUID), heat first. */
export function alertsByDevice(alerts: readonly Alert[] | undefined): Map<string, Alert[]> {
  const map = new Map<string, Alert[]>();
  for (const a of alerts ?? []) {
    if (a.resolved) continue;
    const list = map.get(a.device) ?? [];
    list.push(a);
    map.set(a.device, list);
  }
  for (const list of map.values()) list.sort(byAlertRank);
  return map;
}

/**
 * A pet's open alerts: those of the collars it wears now. Without the collar list (a failed
 * call) each alert's own pet says whose it is, so an open alert never vanishes with the list.
 */
export function openAlertsOfPet(
  petId: string,
  collars: readonly Pick<Device, 'id' | 'dog_id'>[] | undefined,
  openAlerts: ReadonlyMap<string, Alert[]>,
): Alert[] {
  const alerts = collars
    ? collars.filter((c) => c.dog_id === petId).flatMap((c) => openAlerts.get(c.id) ?? [])
    : [...openAlerts.values()].flat().filter((a) => a.dog_id === petId);
  return alerts.sort(byAlertRank);
}
