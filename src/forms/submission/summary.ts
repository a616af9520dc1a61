/** What a host's hooks (spam check, pre-send) are told about a submission. */
export interface SubmissionSummary {
  readonly form: { readonly id: number; readonly title: string };
  /** Posted values by field (pipes applied), including fields the form does not name. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly files: readonly { readonly field: string; readonly name: string; readonly size: number; readonly type: string }[];
  readonly remoteIp: string;
  readonly userAgent: string;
  readonly unitTag: string;
  /** 0 when nobody is logged in. */
  readonly userId: number;
}
