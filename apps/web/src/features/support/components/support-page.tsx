import { PagePlaceholder } from '@/components/page-placeholder';

export function SupportPage() {
  return (
    <PagePlaceholder
      title="Support"
      description="Get help with your PawGuard collar and account."
    />
  );
}
