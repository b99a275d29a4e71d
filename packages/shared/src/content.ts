/**
 * Fixed content the specification requires but never spells out. Pages import it from
 * here so the words live in one place.
 */
export const BRAND = {
  name: 'PawGuard',
  tagline: 'AI pet protection that keeps your dog safe from heat',
} as const;

export const FEATURES = [
  { key: 'activity', title: 'Activity Tracking', description: 'Follow walks, play and rest through the day, so you know how hard your dog is working in the heat.' },
  { key: 'heart-rate', title: 'Heart Rate', description: 'Continuous heart-rate readings from the collar show stress before it becomes danger.' },
  { key: 'alerts', title: 'Smart Alerts', description: 'An e-mail the moment the temperature around your dog crosses your warning or critical threshold.' },
  { key: 'ai', title: 'AI Insights', description: 'Readings are weighed against heat index, breed and history to tell safe from risky.' },
  { key: 'dashboard', title: 'Health Dashboard', description: 'Temperature, humidity, battery and status for every pet on one live screen.' },
  { key: 'goals', title: 'Goal Setting', description: 'Set healthy activity goals and see how each day measures up.' },
] as const;
