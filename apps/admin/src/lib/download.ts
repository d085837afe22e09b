/** Hands a file made in the browser (or fetched with the admin token) to the person as a download. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Let the browser start reading the blob before it is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
