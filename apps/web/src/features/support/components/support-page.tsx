import type { ReactNode } from 'react';
import {
  BookOpen,
  CirclePlay,
  Clock,
  Mail,
  MapPin,
  MessageCircle,
  Phone,
  PhoneCall,
  ShieldCheck,
  Siren,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import {
  POISON_HELPLINE,
  SUPPORT_CONTACT,
  SUPPORT_FAQ,
  SUPPORT_RESOURCES,
} from '@pawguard/shared/content';
import { telHref } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
} from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { usePublicConfig } from '@/lib/api/public-config';

const RESOURCE_ICONS: Record<(typeof SUPPORT_RESOURCES)[number]['key'], LucideIcon> = {
  manual: BookOpen,
  videos: CirclePlay,
  troubleshooting: Wrench,
  warranty: ShieldCheck,
};

export function SupportPage() {
  // The e-mail and phone are the server's settings (SUPPORT_EMAIL, SUPPORT_PHONE).
  const config = usePublicConfig();
  // Settings that do not load leave the documented sample contacts, never a page of skeletons.
  const contact =
    config.data ??
    (config.isError
      ? {
          support_email: SUPPORT_CONTACT.email,
          support_phone: SUPPORT_CONTACT.phone,
          support_phone_tel: telHref(SUPPORT_CONTACT.phone),
        }
      : undefined);
  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Support" description="Get help with your PawGuard collar and account." />

      <EmergencyLine phoneTel={contact?.support_phone_tel} phone={contact?.support_phone} />

      <section aria-labelledby="contact-title" className="mt-8">
        <h2 id="contact-title" className="text-xl font-semibold tracking-tight">
          Contact Us
        </h2>
        <ul className="mt-4 grid gap-4 md:grid-cols-3">
          <ContactCard
            icon={MessageCircle}
            title="Live Chat"
            detail={SUPPORT_CONTACT.chatHours}
            description="Chat with our support team."
            badge={<Badge variant="muted">Coming soon</Badge>}
          >
            <Button variant="outline" className="w-full" disabled>
              Start Chat
            </Button>
          </ContactCard>
          <ContactCard
            icon={Mail}
            title="Email Support"
            detail={SUPPORT_CONTACT.emailResponse}
            description={contact?.support_email}
          >
            <ContactAction
              href={contact && `mailto:${contact.support_email}`}
              icon={Mail}
              label="Send Email"
            />
          </ContactCard>
          <ContactCard
            icon={Phone}
            title="Phone Support"
            detail={SUPPORT_CONTACT.phoneHours}
            description={contact?.support_phone}
          >
            <ContactAction
              href={contact && `tel:${contact.support_phone_tel}`}
              icon={Phone}
              label="Call Support"
            />
          </ContactCard>
        </ul>
      </section>

      <section aria-labelledby="faq-title" className="mt-10">
        <h2 id="faq-title" className="text-xl font-semibold tracking-tight">
          Frequently Asked Questions
        </h2>
        <Card className="mt-4">
          <CardContent className="px-4 py-1 sm:px-6">
            <Accordion type="single" collapsible>
              {SUPPORT_FAQ.map((item) => (
                <AccordionItem key={item.key} value={item.key}>
                  <AccordionTrigger>{item.question}</AccordionTrigger>
                  <AccordionContent>{item.answer}</AccordionContent>
                </AccordionItem>
              ))}
            </Accordion>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="resources-title" className="mt-10">
        <h2 id="resources-title" className="text-xl font-semibold tracking-tight">
          Resources
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {SUPPORT_RESOURCES.map((resource) => {
            const Icon = RESOURCE_ICONS[resource.key];
            return (
              <li key={resource.key}>
                <Card className="h-full bg-muted/40">
                  <CardContent className="flex h-full flex-col gap-2 p-5">
                    <div className="flex items-start justify-between gap-2">
                      <span className="inline-flex size-10 items-center justify-center rounded-lg bg-card text-muted-foreground">
                        <Icon className="size-5" aria-hidden="true" />
                      </span>
                      <Badge variant="muted">Coming soon</Badge>
                    </div>
                    <h3 className="font-semibold">{resource.title}</h3>
                    <p className="text-sm text-muted-foreground">{resource.description}</p>
                  </CardContent>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>
    </section>
  );
}

/**
 * For a dog in danger the useful calls come first: the real poison helpline and the emergency
 * vet finder; PawGuard's own line (the support phone, spec: "opens the phone link") follows.
 */
function EmergencyLine({ phone, phoneTel }: { phone?: string; phoneTel?: string }) {
  return (
    <div className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-900">
      <div className="flex items-start gap-3">
        <Siren className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <h2 className="font-semibold">24/7 Emergency Help</h2>
          <p className="text-sm">
            Dog in danger right now? Call the animal poison helpline or find the nearest emergency
            vet.
          </p>
        </div>
      </div>
      <div className="mt-4 grid gap-2 sm:grid-cols-2">
        <Button
          asChild
          variant="destructive"
          size="lg"
          className="h-auto min-h-11 whitespace-normal py-2"
        >
          <a href={`tel:${POISON_HELPLINE.tel}`}>
            <PhoneCall aria-hidden="true" />
            Call {POISON_HELPLINE.name} {POISON_HELPLINE.phone}
          </a>
        </Button>
        <Button
          asChild
          variant="outline"
          size="lg"
          className="h-auto min-h-11 whitespace-normal py-2"
        >
          <Link to={paths.emergency}>
            <MapPin aria-hidden="true" />
            Find an emergency vet
          </Link>
        </Button>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <span>Collar or account problem during an emergency?</span>
        {/* Spec section 2: a 24/7 emergency line button; after the two above, for the collar. */}
        {phone && phoneTel ? (
          <Button asChild variant="outline" size="sm" className="h-auto min-h-9 whitespace-normal">
            <a href={`tel:${phoneTel}`}>
              <Phone aria-hidden="true" />
              Call Emergency Line {phone}
            </a>
          </Button>
        ) : (
          <Skeleton className="inline-block h-9 w-48" />
        )}
      </div>
    </div>
  );
}

/** A contact link, disabled until the server's settings have loaded. */
function ContactAction({
  href,
  icon: Icon,
  label,
}: {
  href: string | undefined;
  icon: LucideIcon;
  label: string;
}) {
  const content = (
    <>
      <Icon aria-hidden="true" />
      {label}
    </>
  );
  return href ? (
    <Button asChild className="w-full">
      <a href={href}>{content}</a>
    </Button>
  ) : (
    <Button className="w-full" disabled>
      {content}
    </Button>
  );
}

type ContactCardProps = {
  icon: LucideIcon;
  title: string;
  detail: string;
  /** Undefined while the server's settings load. */
  description: string | undefined;
  badge?: ReactNode;
  children: ReactNode;
};

function ContactCard({
  icon: Icon,
  title,
  detail,
  description,
  badge,
  children,
}: ContactCardProps) {
  return (
    <li>
      <Card className="flex h-full flex-col">
        <CardHeader>
          <div className="flex items-start justify-between gap-2">
            <span className="inline-flex size-10 items-center justify-center rounded-lg bg-orange-100 text-orange-700">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {badge}
          </div>
          <CardTitle as="h3" className="mt-2">
            {title}
          </CardTitle>
          {description === undefined ? (
            <Skeleton className="h-5 w-44" />
          ) : (
            <CardDescription className="break-words">{description}</CardDescription>
          )}
          <p className="flex items-center gap-1.5 text-sm font-medium">
            <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
            {detail}
          </p>
        </CardHeader>
        <CardContent className="mt-auto">{children}</CardContent>
      </Card>
    </li>
  );
}
