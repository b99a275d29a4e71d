/** Set by run.mjs, which starts the server with these admin credentials. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through \`npm run test:e2e\`.`);
  return value;
}

export const adminCredentials = {
  email: required('PAWGUARD_ADMIN_EMAIL'),
  password: required('PAWGUARD_ADMIN_PASSWORD'),
};
