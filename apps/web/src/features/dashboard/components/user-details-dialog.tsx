import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { petAvatar, type AdminDog, type AdminUser } from '@pawguard/shared';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useDisplayUnits } from '@/lib/display-units';
import { useDeleteUser } from '../api/delete-user';
import { RoleBadge } from './role-badge';

type UserDetailsDialogProps = {
  user: AdminUser | null;
  dogs: readonly AdminDog[] | undefined;
  dogsLoading: boolean;
  canDelete: boolean;
  onOpenChange: (open: boolean) => void;
};

export function UserDetailsDialog({
  user,
  dogs,
  dogsLoading,
  canDelete,
  onOpenChange,
}: UserDetailsDialogProps) {
  const deleteUser = useDeleteUser();
  const { weight, date } = useDisplayUnits();
  const pets = user && dogs ? dogs.filter((dog) => dog.user_id === user.id) : [];

  const confirmDelete = () => {
    if (!user) return;
    deleteUser.mutate(user.id, {
      onSuccess: () => {
        toast.success('User data deleted');
        onOpenChange(false);
      },
      onError: (error) => toast.error('Failed to delete user', { description: error.message }),
    });
  };

  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent
        // The dialog itself takes focus, not its first button: that is Delete user.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>User details</DialogTitle>
          <DialogDescription>Account information and registered pets.</DialogDescription>
        </DialogHeader>
        {user ? (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Name</dt>
              <dd className="font-medium break-words">{user.name}</dd>
              <dt className="text-muted-foreground">Email</dt>
              <dd className="[overflow-wrap:anywhere]">{user.email}</dd>
              <dt className="text-muted-foreground">Role</dt>
              <dd>
                <RoleBadge role={user.role} />
              </dd>
              <dt className="text-muted-foreground">Joined</dt>
              <dd>{date(user.created_at)}</dd>
              <dt className="text-muted-foreground">Pets</dt>
              <dd className="tabular-nums">{user.dogs_count}</dd>
            </dl>

            <section aria-labelledby="user-pets-title">
              <h3 id="user-pets-title" className="mb-2 font-semibold">
                Pets
              </h3>
              {dogsLoading ? (
                <Skeleton className="h-12 w-full" />
              ) : dogs === undefined ? (
                <p className="text-sm text-muted-foreground">Pets could not be loaded.</p>
              ) : pets.length === 0 ? (
                <p className="text-sm text-muted-foreground">This user has no pets yet.</p>
              ) : (
                <ul className="grid gap-2">
                  {pets.map((pet) => (
                    <li key={pet.id} className="flex items-center gap-3 rounded-lg border p-3">
                      <span className="text-2xl" aria-hidden="true">
                        {petAvatar(pet.id)}
                      </span>
                      <div className="min-w-0 text-sm">
                        <p className="truncate font-medium" title={pet.name}>
                          {pet.name}
                        </p>
                        <p className="text-muted-foreground">
                          {[
                            pet.breed,
                            pet.age !== null
                              ? `${pet.age} ${pet.age === 1 ? 'year' : 'years'}`
                              : null,
                            pet.weight !== null ? weight(pet.weight) : null,
                          ]
                            .filter(Boolean)
                            .join(' · ') || 'No details'}
                        </p>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </section>

            {canDelete ? (
              <div className="flex justify-end border-t pt-4">
                <AlertDialog>
                  <AlertDialogTrigger asChild>
                    <Button variant="destructive" disabled={deleteUser.isPending}>
                      <Trash2 aria-hidden="true" />
                      {deleteUser.isPending ? 'Deleting...' : 'Delete user'}
                    </Button>
                  </AlertDialogTrigger>
                  <AlertDialogContent>
                    <AlertDialogHeader>
                      <AlertDialogTitle>Delete {user.name}?</AlertDialogTitle>
                      <AlertDialogDescription>
                        Are you sure you want to delete this user? This action cannot be undone.
                      </AlertDialogDescription>
                    </AlertDialogHeader>
                    <AlertDialogFooter>
                      <AlertDialogCancel>Cancel</AlertDialogCancel>
                      <AlertDialogAction onClick={confirmDelete}>Delete user</AlertDialogAction>
                    </AlertDialogFooter>
                  </AlertDialogContent>
                </AlertDialog>
              </div>
            ) : null}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
