/**
 * TypeScript cannot resolve a member of `components["schemas"]` whose type holds an array of itself
 * outside any object type, as openapi-typescript writes a JSON value
 * (`V: string | components["schemas"]["V"][]`): "'V' is referenced directly or indirectly in its own
 * type annotation". An interface is resolved lazily, so each such array becomes one, extending
 * `Array` of the same element type: the same type under a name. Recursion through an object's
 * properties, which TypeScript resolves already, is left as written.
 */
import type * as Typescript from "typescript";
import { uniqueIdentifiers } from "../../common/escape.ts";

/** A reference from one schema's type to another's, and the outermost array it sits in, if any. */
interface Edge {
  from: string;
  to: string;
  array: Typescript.ArrayTypeNode | undefined;
}

/** `nodes` (openapi-typescript's output) with every array on such a cycle named, and the interfaces that name them. */
export function nameRecursiveArrays(ts: typeof Typescript, nodes: Typescript.Node[]): Typescript.Node[] {
  const schemas = componentSchemas(ts, nodes);
  if (schemas.size === 0) return nodes;
  const edges = [...schemas].flatMap(([from, type]) => eagerReferences(ts, from, type));
  const cyclic = sameComponent([...schemas.keys()], edges);
  const arrays = [...new Set(edges.filter((e) => e.array && cyclic(e.from, e.to)).map((e) => e.array!))];
  if (arrays.length === 0) return nodes;

  const taken = nodes.flatMap((node) => (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) ? [node.name.text] : []));
  const names = uniqueIdentifiers(
    arrays.map((array) => arrayName(ts, array) ?? `${edges.find((e) => e.array === array)!.from} Array`),
    { case: "pascal", taken },
  );
  const named = new Map(arrays.map((array, index) => [array, names[index]!]));
  const f = ts.factory;
  const rename = (context: Typescript.TransformationContext) => {
    const visit = (node: Typescript.Node): Typescript.Node => {
      const name = ts.isArrayTypeNode(node) ? named.get(node) : undefined;
      return name === undefined ? ts.visitEachChild(node, visit, context) : f.createTypeReferenceNode(name);
    };
    return (node: Typescript.Node) => visit(node);
  };
  const result = ts.transform(nodes, [rename]);
  const renamed = result.transformed;
  const declarations = arrays.map((array) => {
    const declaration = f.createInterfaceDeclaration(
      [f.createModifier(ts.SyntaxKind.ExportKeyword)],
      named.get(array)!,
      undefined,
      [f.createHeritageClause(ts.SyntaxKind.ExtendsKeyword, [f.createExpressionWithTypeArguments(f.createIdentifier("Array"), [array.elementType])])],
      [],
    );
    return ts.addSyntheticLeadingComment(declaration, ts.SyntaxKind.MultiLineCommentTrivia, "* An array in a schema that holds itself, under a name: TypeScript resolves such a recursion through an interface, not through an array written inline. ", true);
  });
  result.dispose();
  return [...renamed, ...declarations];
}

/** Each member of `components["schemas"]` and its type node. */
function componentSchemas(ts: typeof Typescript, nodes: Typescript.Node[]): Map<string, Typescript.TypeNode> {
  const found = new Map<string, Typescript.TypeNode>();
  const components = nodes.find((node): node is Typescript.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === "components");
  const schemas = components?.members.find((member) => ts.isPropertySignature(member) && memberName(ts, member) === "schemas") as Typescript.PropertySignature | undefined;
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) return found;
  for (const member of schemas.type.members) {
    if (!ts.isPropertySignature(member) || member.type === undefined) continue;
    const name = memberName(ts, member);
    if (name !== undefined) found.set(name, member.type);
  }
  return found;
}

function memberName(ts: typeof Typescript, member: Typescript.PropertySignature): string | undefined {
  const name = member.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

/**
 * The schemas `type` refers to where TypeScript resolves them at once: anywhere but inside an
 * object type (a type literal, a mapped type) or a function type.
 */
function eagerReferences(ts: typeof Typescript, from: string, type: Typescript.TypeNode): Edge[] {
  const edges: Edge[] = [];
  const walk = (node: Typescript.Node, array: Typescript.ArrayTypeNode | undefined): void => {
    if (ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node) || ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node)) return;
    if (ts.isIndexedAccessTypeNode(node)) {
      const to = schemaReferenced(ts, node);
      if (to !== undefined) return void edges.push({ from, to, array });
    }
    ts.forEachChild(node, (child) => walk(child, array ?? (ts.isArrayTypeNode(node) ? node : undefined)));
  };
  walk(type, undefined);
  return edges;
}

/** `N` when `node` is `components["schemas"]["N"]` or an indexed access into it (`…["N"]["id"]`). */
function schemaReferenced(ts: typeof Typescript, node: Typescript.TypeNode): string | undefined {
  const path: string[] = [];
  let current: Typescript.TypeNode = node;
  while (ts.isIndexedAccessTypeNode(current)) {
    const index = current.indexType;
    if (!ts.isLiteralTypeNode(index) || !ts.isStringLiteral(index.literal)) return undefined;
    path.unshift(index.literal.text);
    current = current.objectType;
  }
  const isComponents = ts.isTypeReferenceNode(current) && ts.isIdentifier(current.typeName) && current.typeName.text === "components";
  return isComponents && path[0] === "schemas" ? path[1] : undefined;
}

/** "Grid Array Array" for `components["schemas"]["Grid"][][]`; undefined when the items are not one schema. */
function arrayName(ts: typeof Typescript, array: Typescript.ArrayTypeNode): string | undefined {
  let element: Typescript.TypeNode = array;
  let depth = 0;
  for (;;) {
    if (ts.isParenthesizedTypeNode(element)) element = element.type;
    else if (ts.isArrayTypeNode(element)) {
      element = element.elementType;
      depth += 1;
    } else break;
  }
  const schema = schemaReferenced(ts, element);
  return schema === undefined ? undefined : `${schema}${" Array".repeat(depth)}`;
}

/** Whether an edge from `a` to `b` lies on a cycle of references (Tarjan's strongly connected components). */
function sameComponent(names: string[], edges: Edge[]): (a: string, b: string) => boolean {
  const next = new Map<string, string[]>(names.map((name) => [name, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  const connect = (name: string): void => {
    index.set(name, counter);
    low.set(name, counter);
    counter += 1;
    stack.push(name);
    for (const to of next.get(name) ?? []) {
      if (!next.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(name, Math.min(low.get(name)!, low.get(to)!));
      } else if (!component.has(to)) low.set(name, Math.min(low.get(name)!, index.get(to)!));
    }
    if (low.get(name) === index.get(name)) {
      let member: string;
      do {
        member = stack.pop()!;
        component.set(member, index.get(name)!);
      } while (member !== name);
    }
  };
  for (const name of names) if (!index.has(name)) connect(name);
  // Asked of an edge's two ends: the edge closes a cycle (or is one, from a schema to itself).
  return (a, b) => component.has(a) && component.get(a) === component.get(b);
}
