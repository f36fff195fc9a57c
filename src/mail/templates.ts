/** The staff e-mails: sign-in code, invitation and password reset, each as text and simple html. */
export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function page(title: string, paragraphs: string[], footer: string): string {
  const body = paragraphs.map((p) => `<p style="font-size:16px;line-height:24px;color:#3A464C">${p}</p>`).join('\n');
  return `<!doctype html>
<html><head><meta name="viewport" content="width=device-width"><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;background:#ffffff;margin:0;padding:30px 20px">
<div style="max-width:540px;margin:0 auto">
${body}
<p style="font-size:11px;line-height:16px;color:#738A94;margin-top:60px">${footer}</p>
</div></body></html>
`;
}

/**
 * `en-GB` date as Ghost prints it in the sign-in mail: `21 Nov 2026, 13:49 UTC`. Made on first use: building
 * the formatter loads ICU data (30–60 ms), which would otherwise sit on the server's start-up path.
 */
let timeFormat: Intl.DateTimeFormat | undefined;
const formatTime = (at: Date) =>
  (timeFormat ??= new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  })).format(at);

export interface SignInCodeData {
  siteTitle: string;
  siteUrl: string;
  email: string;
  code: string;
  device: string;
  ip: string | null;
  at: Date;
}

/** Ghost's subject, so mail filters written for Ghost keep working. */
export function signInCode(d: SignInCodeData): Rendered {
  const host = new URL(d.siteUrl).hostname;
  const when = formatTime(d.at);
  const where = d.ip ?? 'Unknown';
  return {
    subject: `${d.code} is your Ghost sign in verification code`,
    text: [
      `Your verification code for ${d.siteTitle}`,
      '',
      `You just tried to access your account from a new device. For security verification, enter the code below to sign in to ${d.siteTitle}:`,
      '',
      d.code,
      '',
      `Device: ${d.device || 'Unknown'}`,
      `Where: ${where}`,
      `When: ${when}`,
      '',
      "If you didn't try to sign in recently, you can safely ignore this email to deny access.",
      '',
      `This message was sent from ${host} to ${d.email}`,
    ].join('\n'),
    html: page(
      `Your verification code for ${d.siteTitle}`,
      [
        '<strong>Sign in verification</strong>',
        `You just tried to access your account from a new device. For security verification, enter the code below to sign in to ${escapeHtml(d.siteTitle)}:`,
        `<span style="font-size:24px;letter-spacing:5px;font-weight:600">${d.code}</span>`,
        `Device: <strong>${escapeHtml(d.device || 'Unknown')}</strong><br>Where: <strong>${escapeHtml(where)}</strong><br>When: <strong>${escapeHtml(when)}</strong>`,
        "If you didn't try to sign in recently, you can safely ignore this email to deny access.",
      ],
      `This message was sent from ${escapeHtml(host)} to ${escapeHtml(d.email)}`,
    ),
  };
}

export interface InviteData {
  siteTitle: string;
  siteUrl: string;
  /** Absent when an integration sent the invitation. */
  inviterName: string | null;
  inviterEmail: string | null;
  link: string;
  email: string;
}

export function invitation(d: InviteData): Rendered {
  const who = d.inviterName ?? 'Someone';
  const contact = d.inviterName && d.inviterEmail ? `${d.inviterName} on ${d.inviterEmail}` : 'the site administrator';
  return {
    subject: d.inviterName ? `${d.inviterName} has invited you to join ${d.siteTitle}` : `You have been invited to join ${d.siteTitle}`,
    text: [
      'Welcome',
      '',
      `${d.siteTitle} is using Quire to publish things on the internet! ${who} has invited you to join. Please click on the link below to activate your account.`,
      '',
      d.link,
      '',
      `If you have trouble activating your ${d.siteTitle} account, you can reach out to ${contact} for assistance.`,
      '',
      `This email was sent from ${d.siteUrl} to ${d.email}`,
    ].join('\n'),
    html: page(
      `Welcome to ${d.siteTitle}`,
      [
        '<strong>Welcome</strong>',
        `${escapeHtml(d.siteTitle)} is using Quire to publish things on the internet! ${escapeHtml(who)} has invited you to join. Please click on the link below to activate your account.`,
        `<a href="${escapeHtml(d.link)}">Click here to activate your account</a>`,
        `If you have trouble activating your ${escapeHtml(d.siteTitle)} account, you can reach out to ${escapeHtml(contact)} for assistance.`,
      ],
      `This email was sent from ${escapeHtml(d.siteUrl)} to ${escapeHtml(d.email)}`,
    ),
  };
}

export function passwordReset(d: { siteTitle: string; siteUrl: string; link: string; email: string }): Rendered {
  return {
    subject: 'Reset Password',
    text: [
      'Hey there!',
      '',
      `You can use this link to create a new password for your account on ${d.siteTitle}:`,
      '',
      d.link,
      '',
      'If you have any trouble, you should contact your site administrator for help.',
      '',
      `This email was sent from ${d.siteUrl} to ${d.email}`,
    ].join('\n'),
    html: page(
      'Reset Password',
      [
        'Hey there!',
        `You can use this link to create a new password for your account on ${escapeHtml(d.siteTitle)}:`,
        `<a href="${escapeHtml(d.link)}">${escapeHtml(d.link)}</a>`,
        'If you have any trouble, you should contact your site administrator for help.',
      ],
      `This email was sent from ${escapeHtml(d.siteUrl)} to ${escapeHtml(d.email)}`,
    ),
  };
}
