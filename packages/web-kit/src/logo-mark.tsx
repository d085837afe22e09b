// The shop's mark (the storefront's header and footer, the admin app's menu and login): an SVG
// drawn from the page's text colour, so it needs no image request and no emoji font.

export function LogoMark({ size = 32, className = 'logo__mark' }: { size?: number; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="currentColor" />
      <path d="M18 16h16a12 12 0 0 1 0 24h-8v8h-8z" fill="#fff" />
      <path d="M26 24h8a4 4 0 0 1 0 8h-8z" fill="currentColor" />
    </svg>
  );
}
