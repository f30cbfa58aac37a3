// At least 44 px tall (min-h-11): the size a finger can hit (WCAG 2.5.5).
const pill = "inline-flex min-h-11 items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";
export const actionButton = `${pill} border-primary bg-white text-primary hover:bg-primary/5 disabled:cursor-not-allowed disabled:border-ink/30 disabled:text-ink/70 disabled:hover:bg-white`;
export const ctaButton = `${pill} border-primary bg-primary text-white hover:bg-primary-dark`;
export const dangerButton = `${pill} border-red-700 bg-white text-red-700 hover:bg-red-50`;
