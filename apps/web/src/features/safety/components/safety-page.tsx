import { PagePlaceholder } from '@/components/page-placeholder';

export function SafetyPage() {
  return (
    <PagePlaceholder
      title="Pet Safety Guide"
      description="How to keep your dog safe in the heat, and what to do in an emergency."
    />
  );
}
