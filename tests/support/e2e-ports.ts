/** Fixed loopback ports of the end-to-end suite (the app itself uses E2E_PORT, default 3100). */
export const E2E_PORTS = { smtp: 3125, oidc: 3190, control: 3191, corsAllowedSite: 3192, corsOtherSite: 3193 } as const;
