/** The announcement above the header; a labelled landmark, so no page content sits outside one. */
export function SiteBanner() {
  return (
    <aside className="site-banner" aria-label="Announcement">
      <span className="site-banner__pill">Live</span>
      Persona Books is now live! More books are coming soon.
    </aside>
  );
}
