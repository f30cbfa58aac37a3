/** Site facts from config that every page may show (root loader data). */
export type SiteInfo = {
  appName: string;
  publicOrigin: string;
  supportEmail: string;
  companyName: string;
  year: number;
};
