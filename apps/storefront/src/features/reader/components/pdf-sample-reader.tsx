// The sample when it is an uploaded PDF: its pages one at a time, drawn by pdf.js to fit the
// reader's page (sharp on every screen: drawn at the device's pixel ratio), then the end of the
// sample. Each page's words are given to screen readers; a PDF the browser cannot open says so
// and offers the file itself.
import { useEffect, useRef, useState } from 'react';
import type { Book } from '@persona/contracts';
import { StateMessage } from '@persona/web-kit/state-message';
import { Skeleton } from '../../../components/ui/skeleton';
import { usePageTurner } from '../hooks/use-page-turner';
import type { PDFDocumentProxy, RenderTask } from '../lib/pdf-sample';
import { ReaderFrame, SampleEnd } from './reader-frame';

type Loaded = { status: 'loading' } | { status: 'ready'; pdf: PDFDocumentProxy } | { status: 'error' };

export function PdfSampleReader({ book }: { book: Book }) {
  const url = book.samplePdf!.url;
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    setLoaded({ status: 'loading' });
    import('../lib/pdf-sample')
      .then(({ openSamplePdf }) => {
        if (cancelled) return;
        const task = openSamplePdf(url);
        destroy = task.destroy;
        return task.promise.then((pdf) => {
          if (!cancelled) setLoaded({ status: 'ready', pdf });
        });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        console.error('The sample PDF could not be opened', error);
        setLoaded({ status: 'error' });
      });
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [url]);

  // The PDF's pages, then the end of the sample.
  const pages = loaded.status === 'ready' ? loaded.pdf.numPages : 0;
  const turner = usePageTurner(pages + 1);
  const onPdfPage = loaded.status === 'ready' && turner.index < pages;
  const progress = loaded.status === 'ready' ? `Page ${turner.index + 1} of ${pages + 1}` : 'Page 1';

  return (
    <ReaderFrame book={book} turner={loaded.status === 'ready' ? turner : { ...turner, isLast: true }} progress={progress}>
      <div className="reader__page reader__page--pdf">
        {loaded.status === 'loading' && (
          <div className="reader__pdf-loading" aria-busy="true">
            <p className="visually-hidden" role="status">
              Loading the sample pages
            </p>
            <Skeleton style={{ height: '100%', width: '100%' }} />
          </div>
        )}
        {loaded.status === 'error' && (
          <StateMessage
            icon="alert"
            title="We couldn't show this sample"
            message="Your browser could not open the sample's pages here. You can open the PDF itself instead."
          >
            <a className="btn btn--outline" href={url} target="_blank" rel="noopener">
              Open the sample PDF
            </a>
          </StateMessage>
        )}
        {loaded.status === 'ready' && (
          <div key={turner.index} className="reader__page-content">
            {onPdfPage ? <PdfPage pdf={loaded.pdf} number={turner.index + 1} title={book.title} /> : <SampleEnd book={book} />}
          </div>
        )}
      </div>
    </ReaderFrame>
  );
}

/** One page of the PDF on a canvas as large as the reader's page allows, and its words for screen readers. */
function PdfPage({ pdf, number, title }: { pdf: PDFDocumentProxy; number: number; title: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [text, setText] = useState('');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const box = boxRef.current;
    const canvas = canvasRef.current;
    if (!box || !canvas) return;
    let cancelled = false;
    let task: RenderTask | undefined;
    let drawn = '';

    const draw = async () => {
      const width = box.clientWidth;
      const height = box.clientHeight;
      // A resize to the same box (or one too small to show anything) draws nothing new.
      const size = `${width}x${height}`;
      if (width < 1 || height < 1 || size === drawn) return;
      drawn = size;
      try {
        const page = await pdf.getPage(number);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        const fit = Math.min(width / base.width, height / base.height);
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: fit * ratio });
        task?.cancel();
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        task = page.render({ canvas, viewport });
        await task.promise;
        if (!cancelled && !text) {
          const { pageText } = await import('../lib/pdf-sample');
          const words = await pageText(page);
          if (!cancelled) setText(words);
        }
      } catch (error) {
        // A render cancelled by the next one is not a failure.
        if (cancelled || (error instanceof Error && error.name === 'RenderingCancelledException')) return;
        console.error('A sample page could not be drawn', error);
        setFailed(true);
      }
    };

    void draw();
    const observer = new ResizeObserver(() => void draw());
    observer.observe(box);
    return () => {
      cancelled = true;
      observer.disconnect();
      task?.cancel();
    };
    // The words are read once per page; a later draw only resizes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pdf, number]);

  return (
    <div className="reader__pdf-page" ref={boxRef}>
      {failed ? (
        <p className="reader__pdf-failed">This page of the sample could not be drawn. Try the next one.</p>
      ) : (
        <canvas ref={canvasRef} className="reader__pdf-canvas" role="img" aria-label={`Page ${number} of the sample of ${title}`} />
      )}
      {text && <div className="visually-hidden">{text}</div>}
    </div>
  );
}
