// The shop's own words that are not catalogue data: testimonials, team, contact details (DESIGN §10).
export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

export interface TeamMember {
  name: string;
  role: string;
  bio: string;
}

export const SITE_NAME = 'Persona Books';

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote: 'Opening a book with my own name on the dedication page felt like the author had written it for me. It is the gift I now give everyone.',
    name: 'Ananya R.',
    role: 'Reader, Bengaluru',
  },
  {
    quote: 'I tried the sample, loved the first chapter and had my Persona a few minutes later. The signed certificate is a lovely touch.',
    name: 'Rahul M.',
    role: 'Reader, Pune',
  },
  {
    quote: 'The printed Persona arrived well packed and on time. My daughter keeps showing her name inside the book to her friends.',
    name: 'Meera S.',
    role: 'Parent, Chennai',
  },
];

export const TEAM: readonly TeamMember[] = [
  { name: 'Kavya Iyer', role: 'Founder & Editor', bio: 'Spent a decade in publishing before asking why every copy of a book had to be the same.' },
  { name: 'Arjun Mehta', role: 'Head of Technology', bio: 'Builds the signing and typesetting pipeline that turns a book into your Persona.' },
  { name: 'Sara Thomas', role: 'Author Relations', bio: 'Works with writers so every Persona carries their genuine signature.' },
];

export interface ContactDetails {
  /** Support e-mail, linked with mailto:. */
  email: string;
  /** As people read it; the tel: link is derived from it. */
  phone: string;
  /** The postal address, one line per entry. */
  address: readonly string[];
  /** How soon a message is answered, as the contact pages say it. */
  replyWithin: string;
}

export const CONTACT_DETAILS: ContactDetails = {
  email: 'support@personabooks.in',
  phone: '+91 80 4000 1234',
  address: ['Persona Books', '2nd Floor, 14 Church Street', 'Bengaluru 560001', 'India'],
  replyWithin: 'two working days',
};

export const SHIPPING = {
  /** Flat fee for physical deliveries, in rupees (spec §9). */
  deliveryFeeRupees: 50,
  minBusinessDays: 5,
  maxBusinessDays: 7,
} as const;
