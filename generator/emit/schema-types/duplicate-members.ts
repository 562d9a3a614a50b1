/**
 * openapi-typescript adds a discriminator's property to each schema that an `allOf` ties to the
 * discriminating parent, even where the schema declares that property itself: the object type then
 * declares one member twice ("Duplicate identifier"). Each such pair becomes one member, required
 * if either is, of the one type if both are written alike, else of both (an intersection).
 */
import type * as Typescript from "typescript";

function memberName(ts: typeof Typescript, member: Typescript.TypeElement): string | undefined {
  if (!ts.isPropertySignature(member)) return undefined;
  const name = member.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

export function mergeDuplicateMembers(ts: typeof Typescript, nodes: Typescript.Node[]): Typescript.Node[] {
  const f = ts.factory;
  const printer = ts.createPrinter({ removeComments: true });
  const text = (type: Typescript.TypeNode | undefined) => (type === undefined ? "" : printer.printNode(ts.EmitHint.Unspecified, type, ts.createSourceFile("t.ts", "", ts.ScriptTarget.Latest)));
  let changed = false;
  const merge = (context: Typescript.TransformationContext) => {
    const visit = (node: Typescript.Node): Typescript.Node => {
      const visited = ts.visitEachChild(node, visit, context);
      if (!ts.isTypeLiteralNode(visited)) return visited;
      const byName = new Map<string, Typescript.PropertySignature[]>();
      for (const member of visited.members) {
        const name = memberName(ts, member);
        if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), member as Typescript.PropertySignature]);
      }
      if ([...byName.values()].every((alike) => alike.length === 1)) return visited;
      changed = true;
      const members: Typescript.TypeElement[] = [];
      for (const member of visited.members) {
        const name = memberName(ts, member);
        const alike = name === undefined ? [] : byName.get(name)!;
        if (alike.length <= 1) members.push(member);
        else if (alike[0] === member && ts.isPropertySignature(member)) {
          const types = [...new Map(alike.filter((m) => m.type !== undefined).map((m) => [text(m.type), m.type!])).values()];
          const required = alike.some((m) => m.questionToken === undefined);
          const type = types.length <= 1 ? member.type : f.createIntersectionTypeNode(types);
          members.push(f.updatePropertySignature(member, member.modifiers, member.name, required ? undefined : member.questionToken, type));
        }
      }
      return f.updateTypeLiteralNode(visited, f.createNodeArray(members));
    };
    return (node: Typescript.Node) => visit(node);
  };
  const result = ts.transform(nodes, [merge]);
  const merged = changed ? [...result.transformed] : nodes;
  result.dispose();
  return merged;
}
