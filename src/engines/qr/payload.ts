/** What the code encodes for each `type`: the conventions phone cameras act on. */
export type PayloadType = 'link' | 'text' | 'email' | 'phone' | 'sms';

export function payloadOf(type: PayloadType, content: string): string {
  switch (type) {
    case 'email':
      return content.startsWith('mailto:') ? content : `mailto:${content}`;
    case 'phone':
      return content.startsWith('tel:') ? content : `tel:${content}`;
    case 'sms':
      return content.toUpperCase().startsWith('SMSTO:') ? content : `SMSTO:${content}`;
    default:
      // A link is encoded as given: rewriting it could break a signed or case-sensitive URL.
      return content;
  }
}
