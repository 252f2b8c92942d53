/**
 * What stands in the conversation for the Planner's `propose_plan` arguments once the user edited
 * the plan on its card and executed that version: the Actor works from the saved version only.
 * One text, live (Execute) and when a resumed task's conversation is rebuilt from its cards.
 */
export function editedPlanNote(version: number): string {
  return `replaced by plan v${version}, which the user edited; carry out the version in the brief below`;
}
