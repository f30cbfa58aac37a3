/** The row of `totals` that counts every opportunity post ever made (SPEC §3 "totals"). */
export const OPPORTUNITY_POSTS_TOTAL = "opportunity posts";
