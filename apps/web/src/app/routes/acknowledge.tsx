import { useDocumentTitle } from '@/lib/use-document-title';
import { AcknowledgePage } from '@/features/alerts/components/acknowledge-page';

/** Open to everyone: an alert mail's link acknowledges without a sign-in (OpenLayout picks the header). */
export default function AcknowledgeRoute() {
  useDocumentTitle('Acknowledge alert');
  return <AcknowledgePage />;
}
