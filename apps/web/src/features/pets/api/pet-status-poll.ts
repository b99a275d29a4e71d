/** Spec section 9: the pet page polls every 10 s. */
export const PET_STATUS_POLL_MS = 10_000;
