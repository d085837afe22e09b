export function SiteBanner() {
  return (
    <div className="site-banner" role="note">
      <span className="site-banner__pill">Live</span>
      Persona Books is now live! More books are coming soon.
    </div>
  );
}
