/** The brand mark: a purple tile with a mint-and-pink spark. Decorative next to the name. */
export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#603f8b" />
      <path d="M16 5l3 8 8 3-8 3-3 8-3-8-8-3 8-3z" fill="#b4fee7" />
      <circle cx="24" cy="8" r="3" fill="#fd49a0" />
    </svg>
  );
}
