import { celsiusToFahrenheit, formatCelsius, formatFahrenheit } from '@pawguard/shared';

/**
 * Every temperature on screen is said here, and only here: °C then °F, one decimal each
 * (spec section 9), so the unit the owner reads can change in one place. `plain` says it as
 * one run of text (a sentence, a table cell); otherwise the second unit is quieter.
 */
export function Temperature({ celsius, plain = false }: { celsius: number; plain?: boolean }) {
  if (plain) return <>{temperatureText(celsius)}</>;
  return (
    <>
      {formatCelsius(celsius)}{' '}
      <span className="text-base font-normal text-muted-foreground">
        / {formatFahrenheit(celsiusToFahrenheit(celsius))}
      </span>
    </>
  );
}

/** The same words as text, for a title, an attribute or a sentence. */
export const temperatureText = (celsius: number) =>
  `${formatCelsius(celsius)} / ${formatFahrenheit(celsiusToFahrenheit(celsius))}`;
