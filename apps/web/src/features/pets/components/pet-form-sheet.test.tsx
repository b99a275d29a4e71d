import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { BREEDS } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makePet } from '@/testing/devices';
import { PetFormSheet } from './pet-form-sheet';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function setup({ signedIn = true, pet = null as ReturnType<typeof makePet> | null } = {}) {
  const onOpenChange = vi.fn();
  const auth = fakeAuth(signedIn ? makeUser() : null);
  renderWithProviders(<PetFormSheet open onOpenChange={onOpenChange} pet={pet} />, { auth });
  return { onOpenChange, user: userEvent.setup() };
}

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

describe('the add-pet sheet', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('keeps Add Pet disabled until the pet has a name (whitespace does not count)', async () => {
    const { user } = setup();
    const add = screen.getByRole('button', { name: 'Add Pet' });
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('Name *'), '   ');
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    expect(add).toBeEnabled();
  });

  it("says 'Pet name is required' once the name field is left empty", async () => {
    const { user } = setup();
    expect(screen.queryByText('Pet name is required')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Name *'));
    await user.tab();
    expect(screen.getByText('Pet name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name *')).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers weight in steps of 0.1 and age in whole years', () => {
    setup();
    expect(screen.getByLabelText('Weight (lbs)')).toHaveAttribute('step', '0.1');
    expect(screen.getByLabelText('Age (years)')).toHaveAttribute('step', '1');
  });

  it('sends the age as an integer, the weight as a decimal and omits empty optional fields', async () => {
    const calls = stubFetch({
      'POST /api/dogs': (init) => jsonResponse(201, { dog: makePet({ ...bodyOf(init) }) }),
    });
    const { user, onOpenChange } = setup();
    await user.type(screen.getByLabelText('Name *'), '  Biscuit ');
    await user.type(screen.getByLabelText('Age (years)'), '4');
    await user.type(screen.getByLabelText('Weight (lbs)'), '22.5');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pet added successfully'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(bodyOf(post.init)).toEqual({ name: 'Biscuit', age: 4, weight: 22.5 });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('says under the field that 2.7 years or 900 lbs cannot be saved, and sends nothing', async () => {
    const calls = stubFetch({});
    const { user, onOpenChange } = setup();
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    await user.type(screen.getByLabelText('Age (years)'), '2.7');
    await user.type(screen.getByLabelText('Weight (lbs)'), '900');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));

    expect(await screen.findByText('Age must be a whole number of years.')).toBeInTheDocument();
    expect(screen.getByText('Weight must be between 0.1 and 400 lbs.')).toBeInTheDocument();
    expect(screen.getByLabelText('Age (years)')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('says an age over 40 is out of range, focuses it, ties the message to it and clears it once right', async () => {
    const calls = stubFetch({});
    const { user } = setup();
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    const age = screen.getByLabelText('Age (years)');
    await user.type(age, '41');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));

    const message = await screen.findByText('Age must be between 0 and 40 years.');
    expect(age).toHaveFocus();
    expect(age).toHaveAttribute('aria-describedby', message.id);
    await user.clear(age);
    await user.type(age, '4');
    await waitFor(() => expect(age).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByText(/Age must be/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('asks for the heat-risk details under their own heading and sends the ones given', async () => {
    const calls = stubFetch({
      'POST /api/dogs': (init) => jsonResponse(201, { dog: makePet({ ...bodyOf(init) }) }),
    });
    const { user } = setup();
    const section = screen.getByRole('group', { name: 'Heat-risk details' });
    expect(section).toHaveAccessibleDescription('Optional: helps PawGuard judge heat risk.');
    const sex = within(section).getByLabelText('Sex');
    expect(
      within(sex)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Unknown', 'Female', 'Male']);
    const body = within(section).getByLabelText('Body condition');
    const bodyOptions = within(body)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(bodyOptions).toHaveLength(10);
    expect(bodyOptions).toEqual(
      expect.arrayContaining(['Unknown', '1 – very thin', '5 – ideal', '9 – obese']),
    );
    const conditions = within(section).getByRole('group', { name: 'Known conditions' });
    expect(within(conditions).getAllByRole('checkbox')).toHaveLength(3);

    await user.type(screen.getByLabelText('Name *'), 'Rex');
    await user.type(screen.getByLabelText('Breed'), 'Frenchie cross');
    await user.selectOptions(sex, 'Male');
    await user.selectOptions(body, '7 – heavy');
    await user.click(within(conditions).getByLabelText('Heart'));
    await user.click(within(conditions).getByLabelText('Airway (e.g. BOAS, laryngeal paralysis)'));
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pet added successfully'));
    expect(bodyOf(calls.find((c) => c.method === 'POST')!.init)).toEqual({
      name: 'Rex',
      breed: 'Frenchie cross',
      sex: 'male',
      body_condition: 7,
      health_conditions: ['airway', 'heart'],
    });
  });

  it('offers the breeds heat risk knows as suggestions on the Breed field', () => {
    setup();
    const breed = screen.getByLabelText('Breed');
    const list = document.getElementById(breed.getAttribute('list')!)!;
    expect(list.tagName).toBe('DATALIST');
    const names = Array.from(list.querySelectorAll('option')).map((o) => o.value);
    expect(names).toEqual(BREEDS.map((b) => b.name));
    expect(names).toContain('French Bulldog');
  });

  it("shows 'Failed to add pet' with the server's reason", async () => {
    stubFetch({
      'POST /api/dogs': () =>
        jsonResponse(400, { error: 'weight must be between 0.1 and 400 lbs' }),
    });
    const { user, onOpenChange } = setup();
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to add pet', {
        description: 'weight must be between 0.1 and 400 lbs',
      }),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('asks to log in, without calling the server, when nobody is signed in', async () => {
    const calls = stubFetch({});
    const { user } = setup({ signedIn: false });
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));
    expect(toast.error).toHaveBeenCalledWith('Please log in to add a pet');
    expect(calls).toHaveLength(0);
  });
});

describe('the edit-pet sheet', () => {
  it('loads the stored heat-risk details, and sends them back as edited (Unknown and unticked clear them)', async () => {
    const pet = makePet({
      name: 'Rex',
      breed: 'French Bulldog',
      age: null,
      weight: null,
      sex: 'female',
      body_condition: 6,
      health_conditions: ['airway', 'breathing'],
    });
    const calls = stubFetch({
      [`PUT /api/dogs/${pet.id}`]: (init) =>
        jsonResponse(200, { dog: { ...pet, ...bodyOf(init) } }),
    });
    const { user } = setup({ pet });
    expect(screen.getByLabelText('Sex')).toHaveValue('female');
    expect(screen.getByLabelText('Body condition')).toHaveValue('6');
    expect(screen.getByLabelText('Airway (e.g. BOAS, laryngeal paralysis)')).toBeChecked();
    expect(screen.getByLabelText('Breathing')).toBeChecked();
    expect(screen.getByLabelText('Heart')).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Update Pet' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pet updated successfully!'));
    expect(bodyOf(calls.filter((c) => c.method === 'PUT')[0]!.init)).toEqual({
      name: 'Rex',
      breed: 'French Bulldog',
      sex: 'female',
      body_condition: 6,
      health_conditions: ['airway', 'breathing'],
    });
  });

  it('clears the heat-risk details when set back to Unknown and unticked', async () => {
    const pet = makePet({
      name: 'Rex',
      breed: null,
      age: null,
      weight: null,
      sex: 'male',
      body_condition: 3,
      health_conditions: ['heart'],
    });
    const calls = stubFetch({
      [`PUT /api/dogs/${pet.id}`]: (init) =>
        jsonResponse(200, { dog: { ...pet, ...bodyOf(init) } }),
    });
    const { user } = setup({ pet });
    await user.selectOptions(screen.getByLabelText('Sex'), 'Unknown');
    await user.selectOptions(screen.getByLabelText('Body condition'), 'Unknown');
    await user.click(screen.getByLabelText('Heart'));
    await user.click(screen.getByRole('button', { name: 'Update Pet' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pet updated successfully!'));
    // PUT replaces: what is left out is cleared.
    expect(bodyOf(calls.find((c) => c.method === 'PUT')!.init)).toEqual({ name: 'Rex' });
  });

  it('starts from the pet, and a cleared optional field is left out of the PUT (so it is cleared)', async () => {
    const pet = makePet({ name: 'Biscuit', breed: 'Beagle', age: 3, weight: 22.5 });
    const calls = stubFetch({
      [`PUT /api/dogs/${pet.id}`]: (init) =>
        jsonResponse(200, { dog: { ...pet, ...bodyOf(init) } }),
    });
    const { user } = setup({ pet });
    expect(screen.getByLabelText('Name *')).toHaveValue('Biscuit');
    await user.clear(screen.getByLabelText('Breed'));
    await user.clear(screen.getByLabelText('Name *'));
    expect(screen.getByRole('button', { name: 'Update Pet' })).toBeDisabled();
    await user.type(screen.getByLabelText('Name *'), 'Biscuit II');
    await user.click(screen.getByRole('button', { name: 'Update Pet' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pet updated successfully!'));
    expect(bodyOf(calls.find((c) => c.method === 'PUT')!.init)).toEqual({
      name: 'Biscuit II',
      age: 3,
      weight: 22.5,
    });
  });
});

describe('the weight for an owner who weighs in kg', () => {
  const inKg = (pet: ReturnType<typeof makePet> | null) => {
    renderWithProviders(<PetFormSheet open onOpenChange={vi.fn()} pet={pet} />, {
      auth: fakeAuth(makeUser({ weight_unit: 'kg' })),
    });
    return userEvent.setup();
  };

  it('is typed in kg and saved in lbs, the unit the API keeps', async () => {
    const calls = stubFetch({
      'POST /api/dogs': (init) => jsonResponse(201, { dog: makePet(bodyOf(init)) }),
    });
    const user = inKg(null);
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    await user.type(screen.getByLabelText('Weight (kg)'), '10');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(bodyOf(calls[0]!.init)).toMatchObject({ name: 'Biscuit', weight: 22.05 });
  });

  it('shows a stored weight in kg, and keeps it exactly when left as shown', async () => {
    const pet = makePet({ name: 'Rex', weight: 22.5 });
    const calls = stubFetch({
      [`PUT /api/dogs/${pet.id}`]: (init) =>
        jsonResponse(200, { dog: { ...pet, ...bodyOf(init) } }),
    });
    const user = inKg(pet);
    expect(screen.getByLabelText('Weight (kg)')).toHaveValue(10.2);
    await user.click(screen.getByRole('button', { name: 'Update Pet' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    // Not 10.2 kg turned back into 22.49 lbs.
    expect(bodyOf(calls[0]!.init)).toMatchObject({ weight: 22.5 });
  });

  it('offers weight in steps of 0.1 in kg too (spec section 5), from 0.1 kg', () => {
    inKg(null);
    const weight = screen.getByLabelText('Weight (kg)');
    expect(weight).toHaveAttribute('step', '0.1');
    expect(weight).toHaveAttribute('min', '0.1');
    expect(weight).toHaveAttribute('max', '181.4');
  });

  it('says the range in kg', async () => {
    const user = inKg(null);
    await user.type(screen.getByLabelText('Name *'), 'Biscuit');
    await user.type(screen.getByLabelText('Weight (kg)'), '200');
    await user.click(screen.getByRole('button', { name: 'Add Pet' }));
    expect(await screen.findByText('Weight must be between 0.1 and 181.4 kg.')).toBeInTheDocument();
  });
});
