import type { BioEditorFieldErrors } from "#server/domains/bio/editor-save";
import type { BioPageFormInput } from "#server/domains/bio/form";
import type { ThemeFormInput } from "#server/domains/bio/theme";
import type { SupportSettingsValues } from "./SupportSettings";

/** The wall and goal section as typed. */
export type WallGoalFormValues = { wallEnabled: boolean; goalTitle: string; goalTarget: string };

/** Every section of the bio editor as its one form shows it: saved, or as typed when drawn again. */
export type EditorValues = { page: BioPageFormInput; theme: ThemeFormInput; support: SupportSettingsValues; wallGoal: WallGoalFormValues };

/** The submit intent of the wall and goal's "Remove goal": the whole form is saved, with no goal. */
export const EDITOR_REMOVE_GOAL_INTENT = "wall-goal-remove";

/**
 * What the editor's action answers when it does not save: every section as typed, the messages by
 * section, a message about the whole form, and whether what is shown is unsaved (a refusal, or a
 * link row's button drawn again). A new `formKey` mounts the fields afresh with it.
 */
export type EditorAnswer = { editor: { values: EditorValues; errors: BioEditorFieldErrors; message?: string; refused: boolean; formKey: string } };
