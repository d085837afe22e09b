// The shop's ad slot in the reader, as the site configuration says (READER_AD_SLOT): its text,
// or an AdSense unit (its script loaded once, only then; the gateway's CSP_AD_ORIGINS allows it).
import { useEffect } from 'react';
import { ADSENSE_SCRIPT, isValidAdSlot, type ReaderAdSlot } from '../../../config/site-content';

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

function loadAdSense(client: string): void {
  if (document.querySelector(`script[src^="${ADSENSE_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.async = true;
  script.crossOrigin = 'anonymous';
  script.src = `${ADSENSE_SCRIPT}?client=${encodeURIComponent(client)}`;
  document.head.append(script);
}

export function AdSlot({ slot }: { slot: ReaderAdSlot }) {
  const adsense = slot.kind === 'adsense' && isValidAdSlot(slot) ? slot : null;
  useEffect(() => {
    if (!adsense) return;
    loadAdSense(adsense.client);
    (window.adsbygoogle ??= []).push({});
  }, [adsense]);

  if (adsense) {
    return (
      <ins
        className="adsbygoogle reader__ad-unit"
        data-ad-client={adsense.client}
        data-ad-slot={adsense.slot}
        data-ad-format="auto"
        data-full-width-responsive="true"
      />
    );
  }
  return <p className="reader__ad-text">{slot.kind === 'text' ? slot.text : ''}</p>;
}
