// Where our GraphQL schema conflicts with GitHub's published one (npm @octokit/graphql-schema) on a name both use
// (DESIGN.md §6, issue #32): a GitHub client's query or mutation that is valid against GitHub must be valid against
// ours wherever the names meet, and read the same types back.
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';

/** One conflict, as a stable line: `Type.field: what differs`. */
export type Conflict = string;

const kindOf = (t: GraphQLNamedType): string =>
  isObjectType(t)
    ? 'object'
    : isInterfaceType(t)
      ? 'interface'
      : isUnionType(t)
        ? 'union'
        : isEnumType(t)
          ? 'enum'
          : isInputObjectType(t)
            ? 'input'
            : 'scalar';

/** An output type ours may have for GitHub's: the same, or a non-null version of it (at any depth). */
function outputFits(ours: GraphQLType, theirs: GraphQLType): boolean {
  if (isNonNullType(theirs)) return isNonNullType(ours) && outputFits(ours.ofType, theirs.ofType);
  if (isNonNullType(ours)) return outputFits(ours.ofType, theirs);
  if (isListType(theirs)) return isListType(ours) && outputFits(ours.ofType, theirs.ofType);
  if (isListType(ours)) return false;
  return ours.name === theirs.name;
}

/** An input type ours may have for GitHub's: the same, or a nullable version of it (ours accepts all GitHub's do). */
function inputFits(ours: GraphQLType, theirs: GraphQLType): boolean {
  if (isNonNullType(ours)) return isNonNullType(theirs) && inputFits(ours.ofType, theirs.ofType);
  if (isNonNullType(theirs)) return inputFits(ours, theirs.ofType);
  if (isListType(theirs)) return isListType(ours) && inputFits(ours.ofType, theirs.ofType);
  if (isListType(ours)) return false;
  return ours.name === theirs.name;
}

function compareArgs(where: string, ours: readonly GraphQLArgument[], theirs: readonly GraphQLArgument[], out: Conflict[]): void {
  const mine = new Map(ours.map((a) => [a.name, a]));
  for (const arg of theirs) {
    const o = mine.get(arg.name);
    if (!o) out.push(`${where}(${arg.name}:): missing argument (GitHub: ${String(arg.type)})`);
    else if (!inputFits(o.type, arg.type)) out.push(`${where}(${arg.name}:): ${String(o.type)} (GitHub: ${String(arg.type)})`);
  }
  const github = new Set(theirs.map((a) => a.name));
  for (const arg of ours) {
    if (!github.has(arg.name) && isNonNullType(arg.type) && arg.defaultValue === undefined) {
      out.push(`${where}(${arg.name}:): required argument GitHub lacks`);
    }
  }
}

function compareFields(
  type: string,
  ours: Record<string, GraphQLField<unknown, unknown>>,
  theirs: Record<string, GraphQLField<unknown, unknown>>,
  out: Conflict[],
): void {
  for (const [name, field] of Object.entries(theirs)) {
    const o = ours[name];
    if (!o) continue;
    if (!outputFits(o.type, field.type)) out.push(`${type}.${name}: ${String(o.type)} (GitHub: ${String(field.type)})`);
    compareArgs(`${type}.${name}`, o.args, field.args, out);
  }
}

function compareInputFields(
  type: string,
  ours: Record<string, GraphQLInputField>,
  theirs: Record<string, GraphQLInputField>,
  out: Conflict[],
): void {
  for (const [name, field] of Object.entries(theirs)) {
    const o = ours[name];
    if (!o) out.push(`${type}.${name}: missing input field (GitHub: ${String(field.type)})`);
    else if (!inputFits(o.type, field.type)) out.push(`${type}.${name}: ${String(o.type)} (GitHub: ${String(field.type)})`);
  }
  for (const [name, field] of Object.entries(ours)) {
    if (!theirs[name] && isNonNullType(field.type) && field.defaultValue === undefined) {
      out.push(`${type}.${name}: required input field GitHub lacks`);
    }
  }
}

/** Every conflict between `ours` and GitHub's schema on the names they share, sorted. */
export function githubConflicts(ours: GraphQLSchema, github: GraphQLSchema): Conflict[] {
  const out: Conflict[] = [];
  const theirs = github.getTypeMap();
  for (const [name, mine] of Object.entries(ours.getTypeMap())) {
    const gh = theirs[name];
    if (!gh || name.startsWith('__')) continue;
    if (kindOf(mine) !== kindOf(gh)) {
      out.push(`${name}: ${kindOf(mine)} (GitHub: ${kindOf(gh)})`);
      continue;
    }
    if ((isObjectType(mine) || isInterfaceType(mine)) && (isObjectType(gh) || isInterfaceType(gh))) {
      compareFields(name, mine.getFields(), gh.getFields(), out);
      const have = new Set(mine.getInterfaces().map((i) => i.name));
      for (const i of gh.getInterfaces()) if (ours.getType(i.name) && !have.has(i.name)) out.push(`${name}: does not implement ${i.name}`);
    } else if (isInputObjectType(mine) && isInputObjectType(gh)) {
      compareInputFields(name, mine.getFields(), gh.getFields(), out);
    } else if (isEnumType(mine) && isEnumType(gh)) {
      const ghValues = new Set(gh.getValues().map((v) => v.name));
      const myValues = new Set(mine.getValues().map((v) => v.name));
      for (const v of ghValues) if (!myValues.has(v)) out.push(`${name}.${v}: missing enum value`);
      for (const v of myValues) if (!ghValues.has(v)) out.push(`${name}.${v}: enum value GitHub lacks`);
    } else if (isUnionType(mine) && isUnionType(gh)) {
      const members = new Set(gh.getTypes().map((t) => t.name));
      for (const t of mine.getTypes()) if (!members.has(t.name)) out.push(`${name}: member ${t.name} GitHub lacks`);
    }
    // A scalar of the same name is the same scalar.
  }
  return [...new Set(out)].sort();
}
