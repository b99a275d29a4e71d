import { MailCheck, X } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

type ConfirmEmailNoticeProps = { email: string; onDismiss: () => void };

/** Shown after a sign-up: the account works at once, the e-mail link confirms the address. */
export function ConfirmEmailNotice({ email, onDismiss }: ConfirmEmailNoticeProps) {
  return (
    <Alert variant="success" role="status" className="items-start">
      <MailCheck aria-hidden="true" />
      <div className="flex-1">
        <p className="font-semibold">Check your email</p>
        <p>
          We&apos;ve sent a confirmation link to{' '}
          <span className="font-medium [overflow-wrap:anywhere]">{email}</span>. Open it to confirm
          your address.
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        className="-m-2 size-8 text-green-900 hover:bg-green-100"
        onClick={onDismiss}
      >
        <X aria-hidden="true" />
        <span className="sr-only">Dismiss</span>
      </Button>
    </Alert>
  );
}
