import { describe, expect, it, vi, beforeEach } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api-client';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/fixtures';
import { AuthScreen } from './auth-screen';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const createAccountSubmit = () =>
  screen
    .getAllByRole('button', { name: 'Create Account' })
    .find((b) => b.getAttribute('type') === 'submit')!;

function setup(overrides: Parameters<typeof fakeAuth>[1] = {}) {
  const onBack = vi.fn();
  const onSignedIn = vi.fn();
  const auth = fakeAuth(null, overrides);
  renderWithProviders(<AuthScreen onBack={onBack} onSignedIn={onSignedIn} />, { auth });
  return { onBack, onSignedIn, user: userEvent.setup() };
}

describe('AuthScreen', () => {
  beforeEach(() => vi.mocked(toast.error).mockClear());

  it('starts in Sign In mode with Email and Password', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(screen.getByText('Sign in to monitor your pets')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toHaveAttribute('type', 'submit');
  });

  it('toggles to Create Account with a Full Name field, and back', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByText('Join us to keep your pets safe')).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name')).toBeRequired();
    const submit = screen
      .getAllByRole('button', { name: 'Create Account' })
      .find((b) => b.getAttribute('type') === 'submit');
    expect(submit).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
  });

  it('shows "Please fill in all fields" for an empty or whitespace-only field, without calling the server', async () => {
    const login = vi.fn();
    const { user } = setup({ login });
    await user.type(screen.getByLabelText('Email'), '   ');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Please fill in all fields' });
    expect(login).not.toHaveBeenCalled();
  });

  it('requires the full name when creating an account', async () => {
    const register = vi.fn();
    const { user } = setup({ register });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'riley@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    const submit = screen
      .getAllByRole('button', { name: 'Create Account' })
      .find((b) => b.getAttribute('type') === 'submit')!;
    await user.click(submit);

    expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Please fill in all fields' });
    expect(register).not.toHaveBeenCalled();
  });

  it('says a short password under the field, tied to it, until it is long enough', async () => {
    const register = vi.fn(async () => makeUser());
    const { user } = setup({ register });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Riley');
    await user.type(screen.getByLabelText('Email'), 'riley@example.com');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'short');
    await user.click(createAccountSubmit());

    const message = screen.getByText('Password must be at least 8 characters.');
    expect(password).toHaveFocus();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    const hint = screen.getByText('At least 8 characters.');
    expect(password).toHaveAttribute('aria-describedby', `${message.id} ${hint.id}`);
    expect(toast.error).not.toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();

    await user.type(password, '-enough');
    expect(screen.queryByText('Password must be at least 8 characters.')).not.toBeInTheDocument();
    expect(password).toHaveAttribute('aria-describedby', hint.id);
    await user.click(createAccountSubmit());
    expect(register).toHaveBeenCalledWith({
      name: 'Riley',
      email: 'riley@example.com',
      password: 'short-enough',
    });
  });

  it('refuses an e-mail address the server would refuse, in its words, without calling it', async () => {
    const register = vi.fn();
    const { user } = setup({ register });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Riley');
    await user.type(screen.getByLabelText('Email'), 'riley-at-example');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(createAccountSubmit());

    expect(toast.error).toHaveBeenCalledWith('Signup Failed', {
      description: 'email must be a valid e-mail address',
    });
    expect(register).not.toHaveBeenCalled();
  });

  it('signs in with the trimmed e-mail', async () => {
    const login = vi.fn(async () => makeUser());
    const { user, onSignedIn } = setup({ login });
    await user.type(screen.getByLabelText('Email'), '  riley@example.com ');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(login).toHaveBeenCalledWith({ email: 'riley@example.com', password: 'secret-password' });
    expect(onSignedIn).toHaveBeenCalled();
  });

  it('shows Login Failed with the reason when the credentials are wrong', async () => {
    const login = vi.fn(async () => {
      throw new ApiError('Invalid email or password', 401);
    });
    const { user, onSignedIn } = setup({ login });
    await user.type(screen.getByLabelText('Email'), 'riley@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(toast.error).toHaveBeenCalledWith('Login Failed', {
      description: 'Invalid email or password',
    });
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("shows Signup Failed with the server's error", async () => {
    const register = vi.fn(async () => {
      throw new ApiError('User with this email already exists', 409);
    });
    const { user } = setup({ register });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), 'Riley');
    await user.type(screen.getByLabelText('Email'), 'riley@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    const submit = screen
      .getAllByRole('button', { name: 'Create Account' })
      .find((b) => b.getAttribute('type') === 'submit')!;
    await user.click(submit);

    expect(toast.error).toHaveBeenCalledWith('Signup Failed', {
      description: 'User with this email already exists',
    });
  });

  it('tells a new account to check the e-mail', async () => {
    const register = vi.fn(async () => makeUser());
    const { user } = setup({ register });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Full Name'), ' Riley ');
    await user.type(screen.getByLabelText('Email'), 'riley@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    const submit = screen
      .getAllByRole('button', { name: 'Create Account' })
      .find((b) => b.getAttribute('type') === 'submit')!;
    await user.click(submit);

    expect(register).toHaveBeenCalledWith({
      name: 'Riley',
      email: 'riley@example.com',
      password: 'secret-password',
    });
    expect(toast.success).toHaveBeenCalledWith('Check your email', {
      description: "We've sent you a confirmation link",
    });
  });

  it("reads 'Please wait...' while an auth call is running", () => {
    setup({ isLoading: true });
    expect(screen.getByRole('button', { name: 'Please wait...' })).toBeDisabled();
  });

  it('goes back to the landing page from the back button, the logo and the title', async () => {
    const { user, onBack } = setup();
    await user.click(screen.getByRole('button', { name: 'Back to home' }));
    await user.click(screen.getByRole('button', { name: /PawGuard — back to home/ }));
    await user.click(screen.getByRole('button', { name: 'Welcome Back' }));
    expect(onBack).toHaveBeenCalledTimes(3);
  });

  it('opens in Create Account mode with an address filled in when asked (an invitation)', () => {
    renderWithProviders(
      <AuthScreen
        onBack={() => {}}
        onSignedIn={() => {}}
        initialMode="sign-up"
        initialEmail="sam@example.com"
      />,
      { auth: fakeAuth(null) },
    );
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Full Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('sam@example.com');
  });
});
