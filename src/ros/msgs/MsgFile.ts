/** The text of one .msg file and the type it defines ("pkg/msg/Name"). */
export type MsgFile = { typeName: string; text: string };
