import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';

type WaitlistDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/** The waitlist form (name, email, phone, pet name, breed) is added here next. */
export function WaitlistDialog({ open, onOpenChange }: WaitlistDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>Join the Waitlist</DialogTitle>
        </DialogHeader>
      </DialogContent>
    </Dialog>
  );
}
