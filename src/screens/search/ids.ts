/** The search view's id: `:` opens it for words that name no area. */
export const SEARCH_SCREEN = 'search';
