import { useId, useState } from 'react';
import { Eye, Search, UserCog, Users } from 'lucide-react';
import type { AdminUser } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useDisplayUnits } from '@/lib/display-units';
import { filterUsers, type RoleFilter } from './filter-users';
import { RoleBadge } from './role-badge';

type UserTableProps = {
  users: readonly AdminUser[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
  currentUserId: string;
  onViewDetails: (user: AdminUser) => void;
  onChangeRole: (user: AdminUser) => void;
  /** Users on the platform, when more exist than are loaded (the search covers those loaded). */
  total?: number | undefined;
};

export function UserTable({
  users,
  isLoading,
  isError,
  onRetry,
  currentUserId,
  onViewDetails,
  onChangeRole,
  total,
}: UserTableProps) {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<RoleFilter>('all');
  const searchId = useId();
  const { date } = useDisplayUnits();
  const roleId = useId();
  const visible = users ? filterUsers(users, search, role) : [];
  const filtering = search.trim() !== '' || role !== 'all';

  return (
    <div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid flex-1 gap-2">
          <Label htmlFor={searchId}>Search users</Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id={searchId}
              type="search"
              placeholder="Search by name or email"
              className="pl-9"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-2 sm:w-44">
          <Label htmlFor={roleId}>Role</Label>
          <NativeSelect
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as RoleFilter)}
          >
            <option value="all">All Roles</option>
            <option value="admin">Admins</option>
            <option value="user">Users</option>
          </NativeSelect>
        </div>
      </div>

      <p className="mt-4 text-sm text-muted-foreground" aria-live="polite">
        {users
          ? `Showing ${visible.length} of ${users.length} users${total !== undefined && total > users.length ? ` loaded (${total} in all)` : ''}`
          : null}
      </p>

      <div className="mt-2 rounded-lg border">
        <Table scrollLabel="Users" stacked>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>User</TableHead>
              <TableHead>Role</TableHead>
              <TableHead className="text-right">Pets</TableHead>
              <TableHead>Joined</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading ? (
              Array.from({ length: 3 }, (_, i) => (
                <TableRow key={i}>
                  <TableCell colSpan={5}>
                    <Skeleton className="h-8 w-full" />
                  </TableCell>
                </TableRow>
              ))
            ) : isError ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={5} className="py-10 text-center">
                  <p className="font-medium">Users could not be loaded.</p>
                  <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
                    Try Again
                  </Button>
                </TableCell>
              </TableRow>
            ) : visible.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={5} className="py-10 text-center text-muted-foreground">
                  <Users className="mx-auto mb-2 size-8" aria-hidden="true" />
                  {filtering ? 'No users match your search.' : 'No users yet.'}
                </TableCell>
              </TableRow>
            ) : (
              visible.map((user) => {
                const isSelf = user.id === currentUserId;
                return (
                  <TableRow key={user.id}>
                    <TableCell className="max-w-[16rem] max-md:flex-col max-md:items-start max-md:gap-0">
                      <p
                        className="max-w-full truncate font-medium max-md:text-base"
                        title={user.name}
                      >
                        {user.name}
                        {isSelf ? (
                          <span className="ml-1 text-xs font-normal text-muted-foreground">
                            (you)
                          </span>
                        ) : null}
                      </p>
                      <p
                        className="max-w-full truncate text-xs text-muted-foreground"
                        title={user.email}
                      >
                        {user.email}
                      </p>
                    </TableCell>
                    <TableCell data-label="Role">
                      <RoleBadge role={user.role} />
                    </TableCell>
                    <TableCell data-label="Pets" className="text-right tabular-nums">
                      {user.dogs_count}
                    </TableCell>
                    <TableCell data-label="Joined" className="whitespace-nowrap">
                      {date(user.created_at)}
                    </TableCell>
                    <TableCell className="max-md:mt-2 max-md:border-t max-md:pt-3">
                      <div className="flex justify-end gap-1 max-md:w-full max-md:gap-2">
                        <Button
                          variant="ghost"
                          size="sm"
                          className="max-md:flex-1 max-md:border max-md:border-input"
                          onClick={() => onViewDetails(user)}
                          aria-label={`View details for ${user.name}`}
                        >
                          <Eye aria-hidden="true" />
                          <span className="max-md:inline md:hidden lg:inline">Details</span>
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          className="max-md:flex-1 max-md:border max-md:border-input"
                          onClick={() => onChangeRole(user)}
                          disabled={isSelf}
                          title={isSelf ? 'You cannot change your own role' : undefined}
                          aria-label={`Change role for ${user.name}`}
                        >
                          <UserCog aria-hidden="true" />
                          <span className="max-md:inline md:hidden lg:inline">Role</span>
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
