import { Siren } from 'lucide-react';
import { PagePlaceholder } from '@/components/page-placeholder';

export function EmergencyPage() {
  return (
    <PagePlaceholder
      title="Emergency Vets"
      description="Find an emergency veterinary clinic near you."
    >
      <p className="mt-2 flex max-w-md items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-left text-sm text-red-900">
        <Siren className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        If your dog shows signs of heat stroke — heavy panting, drooling, weakness or collapse —
        move them to shade, cool them gradually with water, and call your nearest veterinarian now.
      </p>
    </PagePlaceholder>
  );
}
