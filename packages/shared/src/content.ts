/**
 * Fixed content the specification requires but never spells out. Pages import it from
 * here so the words live in one place.
 */
export const BRAND = {
  name: 'PawGuard',
  tagline: 'AI pet protection that keeps your dog safe from heat',
} as const;

export const FEATURES = [
  {
    key: 'activity',
    title: 'Activity Tracking',
    description:
      'Follow walks, play and rest through the day, so you know how hard your dog is working in the heat.',
  },
  {
    key: 'heart-rate',
    title: 'Heart Rate',
    description:
      'Continuous heart-rate readings from the collar show stress before it becomes danger.',
  },
  {
    key: 'alerts',
    title: 'Smart Alerts',
    description:
      'An e-mail the moment the temperature around your dog crosses your warning or critical threshold.',
  },
  {
    key: 'ai',
    title: 'AI Insights',
    description:
      'Readings are weighed against heat index, breed and history to tell safe from risky.',
  },
  {
    key: 'dashboard',
    title: 'Health Dashboard',
    description: 'Temperature, humidity, battery and status for every pet on one live screen.',
  },
  {
    key: 'goals',
    title: 'Goal Setting',
    description: 'Set healthy activity goals and see how each day measures up.',
  },
] as const;

/** The waitlist's breed pick list, in the specification's order. */
export const PET_BREEDS = [
  'Golden Retriever',
  'Labrador Retriever',
  'German Shepherd',
  'Bulldog',
  'Poodle',
  'Beagle',
  'Rottweiler',
  'Yorkshire Terrier',
  'Dachshund',
  'Siberian Husky',
  'Mixed Breed',
  'Other',
] as const;

/** Waitlist toasts (spec section 8); the description is ours, the spec only says it thanks. */
export const WAITLIST_TOASTS = {
  successTitle: 'Successfully Joined Waitlist!',
  successDescription:
    "Thank you for joining! We'll let you know as soon as PawGuard is ready for you and your dog.",
  failure: 'Failed to join waitlist. Please try again.',
  durationMs: 5_000,
} as const;

/**
 * The emergency vet finder's fixed sample clinics (spec sections 2 and 3). They are shown
 * for any ZIP code and marked as samples; the 555-01xx numbers are reserved for fiction.
 */
export const EMERGENCY_CLINICS = [
  {
    id: 'sample-clinic-1',
    name: 'Riverside Animal Emergency Center',
    address: '1200 River Road, Springfield',
    phone: '(555) 555-0101',
    hours: 'Open 24 hours, 7 days a week',
    distance: '1.2 miles',
    rating: 4.8,
  },
  {
    id: 'sample-clinic-2',
    name: 'Oakwood 24-Hour Veterinary Hospital',
    address: '455 Oakwood Avenue, Springfield',
    phone: '(555) 555-0102',
    hours: 'Open 24 hours, 7 days a week',
    distance: '2.7 miles',
    rating: 4.6,
  },
  {
    id: 'sample-clinic-3',
    name: 'Lakeside Pet Urgent Care',
    address: '78 Lakeshore Drive, Springfield',
    phone: '(555) 555-0103',
    hours: 'Mon-Fri 6PM-8AM, weekends 24 hours',
    distance: '4.1 miles',
    rating: 4.3,
  },
] as const;

/** The four things to do on the way to an emergency vet (spec section 2). */
export const EMERGENCY_PREP_TIPS = [
  {
    key: 'call-ahead',
    title: 'Call ahead',
    description: 'Let the clinic know you are coming and what happened, so the team can get ready.',
  },
  {
    key: 'records',
    title: 'Bring medical records',
    description: "Bring your dog's vaccination history, medications and any recent test results.",
  },
  {
    key: 'stay-calm',
    title: 'Stay calm and drive safely',
    description: 'Your dog takes cues from you. Keep them secure in the car and drive carefully.',
  },
  {
    key: 'payment',
    title: 'Have a payment method ready',
    description: 'Emergency clinics usually ask for payment at the time of treatment.',
  },
] as const;

/** The poison helpline card (DESIGN §3): a real US number, available around the clock. */
export const POISON_HELPLINE = {
  name: 'ASPCA Animal Poison Control',
  phone: '(888) 426-4435',
  tel: '+18884264435',
  hours: 'Available 24/7',
} as const;

export type SafetySeverity = 'critical' | 'high' | 'medium';

/** The safety guide's General Tips tab (spec section 2). */
export const SAFETY_TIPS = [
  {
    key: 'water',
    title: 'Always provide fresh water',
    description:
      'Keep cool, fresh water within reach at all times, and carry a bottle and bowl on walks.',
    severity: 'critical',
  },
  {
    key: 'shade',
    title: 'Stay in the shade during peak hours',
    description:
      'Avoid direct sun between 10 AM-4 PM. Walk early in the morning or in the evening instead.',
    severity: 'high',
  },
  {
    key: 'paws',
    title: 'Check paw pad temperature',
    description:
      'Press the back of your hand on the pavement for 7 seconds. If it is too hot for you, it is too hot for paws.',
    severity: 'medium',
  },
  {
    key: 'cars',
    title: 'Never leave pets in cars',
    description:
      'A parked car heats up within minutes, even with the windows cracked. Never leave your dog inside, not even briefly.',
    severity: 'critical',
  },
] as const satisfies readonly {
  key: string;
  title: string;
  description: string;
  severity: SafetySeverity;
}[];

/** The heat stroke protocol on the safety guide's Emergency tab, in order. */
export const HEAT_STROKE_STEPS = [
  {
    key: 'recognize',
    title: 'Recognize the signs',
    description:
      'Heavy panting, drooling, bright red gums, weakness, vomiting or collapse can all mean heat stroke.',
  },
  {
    key: 'cool',
    title: 'Cool down gradually',
    description:
      'Move your dog to shade or air conditioning and wet them with cool — not ice-cold — water, especially the belly and paws.',
  },
  {
    key: 'water',
    title: 'Offer small amounts of water',
    description: 'Let your dog drink small sips of cool water. Never force water into their mouth.',
  },
  {
    key: 'vet',
    title: 'Contact a veterinarian',
    description:
      'Call a vet right away, even if your dog seems to recover: heat stroke can harm organs hours later.',
  },
] as const;

/**
 * First aid that fits a heat-risk band (US veterinary emergency guidance, 2016: cool first,
 * transport second; stop active cooling around 39.5–40 °C rectal). Shown with the band's
 * reasons on the Monitoring and home cards and the alert; SAFE has none.
 */
export const HEAT_FIRST_AID = {
  WARNING: [
    'Stop exercise and move to shade or indoors.',
    'Offer small sips of cool water.',
    'Watch for heavy panting or weakness.',
  ],
  DANGER: [
    'Stop all activity now and move to shade or air conditioning.',
    'Wet the coat with cool, not ice-cold, water and fan it.',
    'Call your vet.',
  ],
  CRITICAL: [
    'Cool first: pour cool water over the body and fan it, now.',
    'Then go to the vet, cooling on the way with the windows open or air conditioning on.',
    'Stop active cooling at about 39.5 °C (103 °F) rectal.',
  ],
} as const;

export type WeatherLevel = 'perfect' | 'good' | 'caution' | 'hot' | 'danger';

/** The Weather Guide's table (spec section 2). */
export const WEATHER_LEVELS = [
  { key: 'perfect', range: '60-70°F', label: 'Perfect', guidance: 'Ideal for walks and play.' },
  { key: 'good', range: '70-75°F', label: 'Good', guidance: 'Safe for most dogs; bring water.' },
  {
    key: 'caution',
    range: '75-80°F',
    label: 'Caution',
    guidance: 'Shorten walks and take regular water breaks.',
  },
  {
    key: 'hot',
    range: '80-85°F',
    label: 'Hot',
    guidance: 'Limit activity to early morning or evening; watch for heavy panting.',
  },
  {
    key: 'danger',
    range: '85°F+',
    label: 'Danger',
    guidance: 'Keep your dog indoors in the cool; only short bathroom breaks.',
  },
] as const satisfies readonly {
  key: WeatherLevel;
  range: string;
  label: string;
  guidance: string;
}[];

/** The fixed result of 'Check Current Weather Safety Level': no real weather lookup exists. */
export const SAMPLE_WEATHER_CHECK = {
  temperature: '78°F',
  level: 'caution',
  label: 'Caution',
  advice: 'Monitor closely and provide extra water breaks',
  toastTitle: 'Weather Check Complete',
  toastDurationMs: 3_000,
} as const satisfies {
  temperature: string;
  level: WeatherLevel;
  label: string;
  advice: string;
  toastTitle: string;
  toastDurationMs: number;
};

/**
 * Support contacts (spec sections 2 and 9). The e-mail and phone are the defaults of the
 * server's SUPPORT_EMAIL and SUPPORT_PHONE settings, which the web reads from GET /api/config;
 * they are samples (555-01xx numbers are reserved for fiction).
 */
export const SUPPORT_CONTACT = {
  email: 'support@pawguard.example',
  emailResponse: 'Response within 2 hours',
  phone: '(800) 555-0142',
  phoneHours: 'Mon-Fri 8AM-8PM EST',
  chatHours: 'Available 24/7',
} as const;

/** The support page's FAQ (spec section 2; hardware claims from section 9). */
export const SUPPORT_FAQ = [
  {
    key: 'how-it-works',
    question: 'How does the PawGuard tracker work?',
    answer:
      'The smart collar measures the temperature and humidity around your dog and sends its readings to PawGuard over WiFi. PawGuard checks each reading against your warning and critical thresholds, shows it live on your dashboard and e-mails you when your dog is at risk.',
  },
  {
    key: 'waterproof',
    question: 'Is the collar waterproof?',
    answer:
      'Yes. The collar is rated IPX7, so rain, puddles, swimming and a cooling hose-down will not harm it.',
  },
  {
    key: 'battery',
    question: 'How long does the battery last?',
    answer: 'A full charge lasts up to 7 days. Charging from empty takes about 2 hours over USB-C.',
  },
  {
    key: 'sizes',
    question: 'What sizes are available?',
    answer: 'Collars come in sizes XS to XXL and fit pets from 5 to 150 lbs.',
  },
  {
    key: 'pets',
    question: 'How many pets can I add to my account?',
    answer: 'As many as you like: there is no limit on the number of pets per account.',
  },
] as const;

/** The support page's resource tiles: not available yet, marked 'Coming soon'. */
export const SUPPORT_RESOURCES = [
  { key: 'manual', title: 'User Manual', description: 'Set up and care for your collar.' },
  { key: 'videos', title: 'Video Tutorials', description: 'Watch how to get started.' },
  { key: 'troubleshooting', title: 'Troubleshooting', description: 'Fix common problems.' },
  { key: 'warranty', title: 'Warranty Info', description: 'What your warranty covers.' },
] as const;
