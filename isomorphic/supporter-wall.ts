// Browser-safe: the supporter wall's sizes, which the owner's list names in its text
// (docs/decisions/0035-supporter-wall-and-goal.md).

/** How many supporters the public page shows. */
export const WALL_SIZE = 10;
/** How many the owner's list shows, newest first. */
export const SUPPORTERS_LIST_SIZE = 50;
