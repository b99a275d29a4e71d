import { useDocumentTitle } from '@/lib/use-document-title';
import { EmergencyPage } from '@/features/emergency/components/emergency-page';

/** Open to everyone: OpenLayout picks the header. */
export default function EmergencyRoute() {
  useDocumentTitle('Emergency Vets');
  return <EmergencyPage />;
}
