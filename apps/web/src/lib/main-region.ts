/**
 * The id of each page's <main> (focusable with tabIndex -1): where Skip to content leads, and
 * where focus goes after a page change or when what opened a dialog is gone.
 */
export const MAIN_ID = 'main-content';
