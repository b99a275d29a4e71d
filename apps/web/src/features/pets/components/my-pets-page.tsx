import { PagePlaceholder } from '@/components/page-placeholder';

export function MyPetsPage() {
  return (
    <PagePlaceholder
      title="My Pets"
      description="Your dogs, their profiles and their safety status at a glance."
    />
  );
}
