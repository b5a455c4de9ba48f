/**
 * The replies whose words are fixed: gates of user state and safety (turn-pipeline
 * §6.1.1, §4.1.2, §6.2). Every provider, LLM or offline, answers these the same way.
 */

/** Onboarding instruction for a CREATED user (turn-pipeline §6.1, §6.1.1). */
export const FINISH_ONBOARDING_TEXT =
  "I'd love to chat! First, please complete onboarding (PUT /v1/me/onboarding) so I can get to know you.";

/**
 * §4.1.2 step 5: onboarding could not complete on this message; say what is
 * missing. The persona is the usual one: it is assigned moments after the
 * answers, so a retry shortly after succeeds.
 */
export function onboardingIncompleteText(missing: readonly string[]): string {
  const answers = missing.filter((m) => m !== 'persona');
  const parts: string[] = [];
  if (answers.length > 0) parts.push(`your onboarding answers are missing ${answers.join(', ')} (PUT /v1/me/onboarding)`);
  if (missing.includes('persona') || parts.length === 0) parts.push("I'm still getting ready to meet you; send your message again in a moment");
  return `Almost there! Before we chat, ${parts.join(', and ')}.`;
}

/** A refusal that keeps the door open (§6.2); hate gets a soft decline, the rest a firm one. */
export const REFUSAL_TEXT: Readonly<Record<'HARD_REFUSE' | 'SOFT_REFUSE', string>> = {
  HARD_REFUSE: "That's not something I can talk about. I'm still here for anything else on your mind.",
  SOFT_REFUSE: "I'd rather not go there, but I'm happy to keep talking about what's going on with you.",
};

/**
 * Crisis-safe reply for self-harm intent (§6.2): take it seriously, stay
 * present, point to immediate human help; no advice on means, no judgement.
 */
export const CRISIS_SAFE_TEXT =
  "I'm really glad you told me, {name}, and I'm taking this seriously. You deserve support right now from someone who can be there in person. " +
  'If you might act on these thoughts or are in danger, please call your local emergency number now, or reach a crisis line (988 in the US, 109 in Korea). ' +
  "I'm here with you. Are you safe right now?";

/**
 * Replies to a §12.4 correction command. Memory does what the command asks
 * after the turn; the reply says so plainly, surfaces no memory (so the
 * correction cannot repeat what it corrects), and asks for no personal details.
 */
export const CORRECTION_TEXT = {
  /** "That's not true" when the previous reply used something it knew. */
  notTrue: "Thanks for telling me, I got that wrong. I won't use it again.",
  /** "That's not true" when the previous reply used nothing it knew (§12.4 #1). */
  whichPart: 'Sorry about that! Which part is wrong?',
  /** "Forget that" / "Forget X". */
  forget: "Okay, I've forgotten that and won't bring it up again.",
  /** "Forget that" when the previous reply used nothing it knew. */
  nothingToForget: "Okay. I wasn't using anything you'd told me there, so there's nothing to forget.",
  /** "Don't bring this topic up again". */
  suppressTopic: "Got it, I won't bring that up again.",
} as const;
