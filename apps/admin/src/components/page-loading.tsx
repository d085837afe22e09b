/** Shown while a page's code chunk or first data loads. */
export function PageLoading({ text = 'Loading...' }: { text?: string }) {
  return (
    <p className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
