import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { roleInputSchema, type AdminUser, type RoleInput } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { formResolver } from '@/lib/form';
import { useUpdateUserRole } from '../api/update-user-role';

type ChangeRoleDialogProps = { user: AdminUser | null; onOpenChange: (open: boolean) => void };

export function ChangeRoleDialog({ user, onOpenChange }: ChangeRoleDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Keyed so the form starts from the chosen user's role each time. */}
        {user ? (
          <ChangeRoleForm key={user.id} user={user} onDone={() => onOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

const roleResolver = formResolver(roleInputSchema);

function ChangeRoleForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const roleId = useId();
  const updateRole = useUpdateUserRole();
  const { register, handleSubmit, control } = useForm<RoleInput, unknown, RoleInput>({
    resolver: roleResolver,
    defaultValues: { role: user.role === 'admin' ? 'user' : 'admin' },
  });
  const role = useWatch({ control, name: 'role' });

  const submit = handleSubmit(({ role }) => {
    updateRole.mutate(
      { userId: user.id, role },
      {
        onSuccess: (updated) => {
          toast.success(`User role updated to ${updated.role}`);
          onDone();
        },
        onError: (error) =>
          toast.error('Failed to update user role', { description: error.message }),
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Change role</DialogTitle>
        <DialogDescription>
          {user.name} is currently {user.role === 'admin' ? 'an admin' : 'a user'}. Admins can
          manage every user, pet and device.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={roleId}>New role</Label>
        <NativeSelect id={roleId} {...register('role')}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </NativeSelect>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={updateRole.isPending || role === user.role}>
          {updateRole.isPending ? 'Saving...' : 'Update role'}
        </Button>
      </DialogFooter>
    </form>
  );
}
