//===- OpenMPDoor.cpp - OpenMP worksharing loops as annotations ------------===//
//
// A lexical pass over one file's text, before any parse: the preprocessor drops `#pragma omp`
// without -fopenmp and turns it into a captured region with it, so the loop the directive
// names is found here, in the text, and the annotation that means the same is written in the
// directive's place. The pass lexes C and C++ well enough to find statements (comments,
// strings, character and raw string literals, preprocessor lines), and walks one statement
// after a directive to find the loop's extent: a loop that holds another OpenMP directive is
// not taken, since the analysis parse would not see it.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/OpenMPDoor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cctype>
#include <map>
#include <optional>

using namespace clustrix;

namespace {

struct Tok {
  enum Kind { Ident, Punct, Literal, Directive } K;
  unsigned Begin, End; ///< [Begin, End) in the text.
};

bool isIdentStart(char C) { return std::isalpha(static_cast<unsigned char>(C)) || C == '_'; }
bool isIdentChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// Lexes Text into the tokens the statement walk needs. A preprocessor line (continuations
/// included) is one Directive token.
class Lexer {
public:
  explicit Lexer(llvm::StringRef Text) : T(Text) {}

  std::vector<Tok> run() {
    std::vector<Tok> Out;
    bool LineStart = true;
    while (P < T.size()) {
      char C = T[P];
      if (C == '\n') {
        LineStart = true;
        ++P;
        continue;
      }
      if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
        ++P;
        continue;
      }
      if (C == '\\' && P + 1 < T.size() && (T[P + 1] == '\n' || T[P + 1] == '\r')) {
        P += 2;
        continue;
      }
      if (C == '/' && P + 1 < T.size() && T[P + 1] == '/') {
        skipLineComment();
        continue;
      }
      if (C == '/' && P + 1 < T.size() && T[P + 1] == '*') {
        skipBlockComment();
        continue;
      }
      unsigned B = P;
      if (C == '#' && LineStart) {
        skipDirective();
        Out.push_back({Tok::Directive, B, P});
        continue;
      }
      LineStart = false;
      if (isIdentStart(C)) {
        while (P < T.size() && isIdentChar(T[P]))
          ++P;
        // A raw string or an encoding prefix: R"x(...)x", u8"...", L'x'.
        if (P < T.size() && (T[P] == '"' || T[P] == '\'')) {
          llvm::StringRef Prefix = T.slice(B, P);
          if (Prefix.ends_with("R") && T[P] == '"') {
            skipRawString();
            Out.push_back({Tok::Literal, B, P});
            continue;
          }
          if (Prefix == "L" || Prefix == "u" || Prefix == "U" || Prefix == "u8") {
            skipQuoted(T[P]);
            Out.push_back({Tok::Literal, B, P});
            continue;
          }
        }
        Out.push_back({Tok::Ident, B, P});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(C)) ||
          (C == '.' && P + 1 < T.size() && std::isdigit(static_cast<unsigned char>(T[P + 1])))) {
        // pp-number: digits, letters, '.', digit separators, exponent signs.
        ++P;
        while (P < T.size()) {
          char D = T[P];
          if (isIdentChar(D) || D == '.' ||
              (D == '\'' && P + 1 < T.size() && isIdentChar(T[P + 1])))
            ++P;
          else if ((D == '+' || D == '-') && std::strchr("eEpP", T[P - 1]))
            ++P;
          else
            break;
        }
        Out.push_back({Tok::Literal, B, P});
        continue;
      }
      if (C == '"' || C == '\'') {
        skipQuoted(C);
        Out.push_back({Tok::Literal, B, P});
        continue;
      }
      ++P;
      Out.push_back({Tok::Punct, B, P});
    }
    return Out;
  }

private:
  void skipLineComment() {
    while (P < T.size() && T[P] != '\n') {
      if (T[P] == '\\' && P + 1 < T.size() && T[P + 1] == '\n')
        ++P;
      ++P;
    }
  }
  void skipBlockComment() {
    size_t E = T.find("*/", P + 2);
    P = E == llvm::StringRef::npos ? T.size() : E + 2;
  }
  void skipQuoted(char Q) {
    ++P;
    while (P < T.size() && T[P] != Q && T[P] != '\n') {
      if (T[P] == '\\')
        ++P;
      ++P;
    }
    if (P < T.size() && T[P] == Q)
      ++P;
  }
  void skipRawString() {
    size_t Open = T.find('(', P);
    if (Open == llvm::StringRef::npos) {
      P = T.size();
      return;
    }
    std::string Close = ")" + T.slice(P + 1, Open).str() + "\"";
    size_t E = T.find(Close, Open);
    P = E == llvm::StringRef::npos ? T.size() : E + Close.size();
  }
  /// A preprocessor line: to its end, over continuations; comments inside it end it only where
  /// the line ends.
  void skipDirective() {
    while (P < T.size() && T[P] != '\n') {
      if (T[P] == '\\' && P + 1 < T.size() && T[P + 1] == '\n') {
        P += 2;
        continue;
      }
      if (T[P] == '\\' && P + 2 < T.size() && T[P + 1] == '\r' && T[P + 2] == '\n') {
        P += 3; // a continuation in a file with CRLF line ends
        continue;
      }
      if (T[P] == '/' && P + 1 < T.size() && T[P + 1] == '*') {
        skipBlockComment();
        continue;
      }
      if (T[P] == '/' && P + 1 < T.size() && T[P + 1] == '/') {
        skipLineComment();
        continue;
      }
      if (T[P] == '"' || T[P] == '\'') {
        skipQuoted(T[P]);
        continue;
      }
      ++P;
    }
  }

  llvm::StringRef T;
  unsigned P = 0;
};

/// Where the parenthesis that closes the one S starts with is, or npos.
size_t closingParen(llvm::StringRef S) {
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return I;
  }
  return llvm::StringRef::npos;
}

/// A `#pragma omp` line, parsed: its directive words and its clauses.
struct OmpDirective {
  std::vector<std::string> Words; ///< "parallel", "for", "simd", ...
  std::string Argument;           ///< The directive's own `(...)`: `threadprivate(x, y)`.
  std::vector<OmpClause> Clauses;
  std::string Error; ///< The line could not be parsed (unbalanced parentheses).
  std::string name() const { return llvm::join(Words, " "); }
};

/// The text of a directive token with continuations joined and comments dropped.
std::string directiveText(llvm::StringRef D) {
  std::string S;
  for (size_t I = 0; I < D.size(); ++I) {
    if (D[I] == '\\' && I + 1 < D.size() && D[I + 1] == '\n') {
      ++I;
      S += ' ';
      continue;
    }
    if (D[I] == '\\' && I + 2 < D.size() && D[I + 1] == '\r' && D[I + 2] == '\n') {
      I += 2;
      S += ' ';
      continue;
    }
    if (D[I] == '/' && I + 1 < D.size() && D[I + 1] == '*') {
      size_t E = D.find("*/", I + 2);
      I = E == llvm::StringRef::npos ? D.size() : E + 1;
      S += ' ';
      continue;
    }
    if (D[I] == '/' && I + 1 < D.size() && D[I + 1] == '/')
      break;
    S += (D[I] == '\t' || D[I] == '\r' || D[I] == '\n') ? ' ' : D[I];
  }
  return S;
}

/// Parses `#pragma omp ...`; nothing for other directives.
std::optional<OmpDirective> parseOmp(llvm::StringRef Raw) {
  std::string Text = directiveText(Raw);
  llvm::StringRef S(Text);
  S = S.ltrim();
  if (!S.consume_front("#"))
    return std::nullopt;
  S = S.ltrim();
  if (!S.consume_front("pragma") || S.empty() || isIdentChar(S[0]))
    return std::nullopt;
  S = S.ltrim();
  if (!S.consume_front("omp") || (!S.empty() && isIdentChar(S[0])))
    return std::nullopt;
  OmpDirective D;
  // The directive's name: a first word, and words that may follow the one before in a
  // combined directive; the clauses start at the first other word.
  // clang-format off
  static const llvm::StringSet<> Follows = {
      "parallel for", "parallel sections", "parallel master", "parallel masked",
      "parallel loop", "parallel workshare", "for simd", "parallel for simd",
      "target teams", "target parallel", "target data", "target enter", "target exit",
      "target update", "target simd", "enter data", "exit data", "teams distribute",
      "teams loop", "distribute parallel", "distribute simd", "declare reduction",
      "declare simd", "declare target", "declare variant", "declare mapper",
      "cancellation point", "taskloop simd", "master taskloop", "masked taskloop",
      "end declare", "target parallel for", "parallel master taskloop",
      "parallel masked taskloop", "distribute parallel for", "teams distribute parallel",
      "target teams distribute", "begin declare", "end declare target"};
  // clang-format on
  bool InClauses = false;
  while (true) {
    S = S.ltrim(" ,");
    if (S.empty())
      break;
    if (!isIdentStart(S[0])) {
      D.Error = "unexpected '" + S.substr(0, 1).str() + "'";
      return D;
    }
    size_t N = 1;
    while (N < S.size() && isIdentChar(S[N]))
      ++N;
    std::string Word = S.substr(0, N).str();
    S = S.drop_front(N).ltrim();
    bool HasParen = !S.empty() && S[0] == '(';
    bool IsName = !InClauses && (D.Words.empty() || Follows.count(D.Words.back() + " " + Word) ||
                                 Follows.count(D.name() + " " + Word));
    size_t Close = HasParen ? closingParen(S) : llvm::StringRef::npos;
    if (HasParen && Close == llvm::StringRef::npos) {
      D.Error = "unbalanced parentheses after '" + Word + "'";
      return D;
    }
    llvm::StringRef Args = HasParen ? S.slice(1, Close).trim() : llvm::StringRef();
    if (HasParen)
      S = S.drop_front(Close + 1);
    // `critical(name)`, `flush(list)` and `threadprivate(list)` take their argument as part of
    // the directive.
    if (IsName && (!HasParen || D.Words.empty())) {
      D.Words.push_back(Word);
      D.Argument = Args.str();
      continue;
    }
    InClauses = true;
    D.Clauses.push_back({Word, Args.str(), HasParen});
  }
  return D;
}

/// Splits a clause's list at top-level commas, trimmed.
std::vector<std::string> splitList(llvm::StringRef S) {
  std::vector<std::string> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= S.size(); ++I) {
    if (I == S.size() || (S[I] == ',' && Depth == 0)) {
      llvm::StringRef Item = S.slice(Start, I).trim();
      if (!Item.empty())
        Out.push_back(Item.str());
      Start = I + 1;
      continue;
    }
    Depth += (S[I] == '(' || S[I] == '[') ? 1 : (S[I] == ')' || S[I] == ']') ? -1 : 0;
  }
  return Out;
}

/// The first ':' of S outside brackets that is not part of a '::'.
size_t topColon(llvm::StringRef S) {
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    Depth += (C == '(' || C == '[') ? 1 : (C == ')' || C == ']') ? -1 : 0;
    if (C != ':' || Depth != 0)
      continue;
    if (I + 1 < S.size() && S[I + 1] == ':') {
      ++I;
      continue;
    }
    return I;
  }
  return llvm::StringRef::npos;
}

bool isIdentifier(llvm::StringRef S) {
  return !S.empty() && isIdentStart(S[0]) && llvm::all_of(S, isIdentChar);
}

bool isIntegerLiteral(llvm::StringRef S, unsigned &V) {
  S = S.rtrim("uUlL");
  return !S.empty() && !S.getAsInteger(0, V);
}

/// Walks statements over the token stream.
class StmtWalker {
public:
  StmtWalker(llvm::StringRef Text, const std::vector<Tok> &Toks) : T(Text), Toks(Toks) {}

  llvm::StringRef text(size_t I) const { return T.slice(Toks[I].Begin, Toks[I].End); }
  bool is(size_t I, llvm::StringRef S) const { return I < Toks.size() && text(I) == S; }

  /// The index past the statement at I, or nothing where it cannot tell. Directives met inside
  /// it are added to Inner.
  std::optional<size_t> skipStmt(size_t I, std::vector<size_t> &Inner, unsigned Depth = 0) {
    if (Depth > 256)
      return std::nullopt;
    while (I < Toks.size() && Toks[I].K == Tok::Directive) {
      Inner.push_back(I);
      ++I;
    }
    if (I >= Toks.size())
      return std::nullopt;
    if (is(I, "{"))
      return skipBalanced(I, Inner);
    if (is(I, ";"))
      return I + 1;
    if (is(I, "for") || is(I, "while") || is(I, "switch")) {
      if (!is(I + 1, "("))
        return std::nullopt;
      std::optional<size_t> After = skipBalanced(I + 1, Inner);
      if (!After)
        return std::nullopt;
      return skipStmt(*After, Inner, Depth + 1);
    }
    if (is(I, "if")) {
      size_t J = I + 1;
      if (is(J, "constexpr") || is(J, "!"))
        ++J;
      if (is(J, "consteval"))
        return skipStmt(J + 1, Inner, Depth + 1);
      if (!is(J, "("))
        return std::nullopt;
      std::optional<size_t> After = skipBalanced(J, Inner);
      if (!After)
        return std::nullopt;
      std::optional<size_t> Then = skipStmt(*After, Inner, Depth + 1);
      if (!Then)
        return std::nullopt;
      size_t K = *Then;
      while (K < Toks.size() && Toks[K].K == Tok::Directive)
        ++K;
      if (is(K, "else")) {
        for (size_t D = *Then; D < K; ++D)
          Inner.push_back(D);
        return skipStmt(K + 1, Inner, Depth + 1);
      }
      return Then;
    }
    if (is(I, "do")) {
      std::optional<size_t> Body = skipStmt(I + 1, Inner, Depth + 1);
      if (!Body || !is(*Body, "while") || !is(*Body + 1, "("))
        return std::nullopt;
      std::optional<size_t> After = skipBalanced(*Body + 1, Inner);
      if (!After || !is(*After, ";"))
        return std::nullopt;
      return *After + 1;
    }
    // An expression or declaration statement: to its ';' at depth 0.
    while (I < Toks.size()) {
      if (Toks[I].K == Tok::Directive) {
        Inner.push_back(I++);
        continue;
      }
      llvm::StringRef S = text(I);
      if (S == ";")
        return I + 1;
      if (S == "(" || S == "[" || S == "{") {
        std::optional<size_t> After = skipBalanced(I, Inner);
        if (!After)
          return std::nullopt;
        I = *After;
        continue;
      }
      if (S == ")" || S == "]" || S == "}")
        return std::nullopt;
      ++I;
    }
    return std::nullopt;
  }

  /// Past the bracket that closes the one at I.
  std::optional<size_t> skipBalanced(size_t I, std::vector<size_t> &Inner) {
    std::vector<char> Stack;
    for (; I < Toks.size(); ++I) {
      if (Toks[I].K == Tok::Directive) {
        Inner.push_back(I);
        continue;
      }
      if (Toks[I].K != Tok::Punct)
        continue;
      char C = T[Toks[I].Begin];
      if (C == '(' || C == '[' || C == '{') {
        Stack.push_back(C == '(' ? ')' : C == '[' ? ']' : '}');
      } else if (C == ')' || C == ']' || C == '}') {
        if (Stack.empty() || Stack.back() != C)
          return std::nullopt;
        Stack.pop_back();
        if (Stack.empty())
          return I + 1;
      }
    }
    return std::nullopt;
  }

private:
  llvm::StringRef T;
  const std::vector<Tok> &Toks;
};

/// Replaces [B, E) of Text with Repl followed by spaces, keeping every newline of the range
/// (a directive's continuation lines), so that each later line keeps its number.
void overwrite(std::string &Text, unsigned B, unsigned E, llvm::StringRef Repl) {
  std::string Out = Repl.str();
  for (unsigned I = B; I < E; ++I)
    if (Text[I] == '\n')
      Out += '\n';
  Text.replace(B, E - B, Out);
}

} // namespace

bool OmpLoop::notShared(llvm::StringRef Name) const {
  for (const std::vector<std::string> *L :
       {&Private, &FirstPrivate, &LastPrivate, &Linear, &Reduction})
    if (llvm::is_contained(*L, Name))
      return true;
  return false;
}

bool clustrix::mayContainOpenMP(llvm::StringRef Text) {
  for (size_t P = Text.find("omp"); P != llvm::StringRef::npos; P = Text.find("omp", P + 3)) {
    size_t LineStart = Text.rfind('\n', P);
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    llvm::StringRef Before = Text.slice(LineStart, P).trim();
    if (Before.starts_with("#") && Before.contains("pragma"))
      return true;
  }
  return false;
}

std::string clustrix::annotationClauses(const std::vector<OmpClause> &Clauses,
                                        std::string &WhyNot) {
  std::vector<std::string> Out;
  auto Refuse = [&](std::string Why) {
    WhyNot = std::move(Why);
    return std::string();
  };
  std::vector<std::string> Reduce;
  std::map<std::string, std::string> ReduceOp; ///< Each reduced variable's operator.
  for (const OmpClause &C : Clauses) {
    llvm::StringRef N = C.Name;
    if (N == "private" || N == "firstprivate" || N == "lastprivate" || N == "shared" ||
        N == "linear" || N == "default" || N == "num_threads" || N == "if" || N == "proc_bind" ||
        N == "nowait" || N == "copyin" || N == "safelen" || N == "simdlen" || N == "aligned" ||
        N == "allocate")
      continue; // facts for the race check, or no meaning for the loop's result
    if (N == "order") {
      if (llvm::StringRef(C.Args).trim().ends_with("concurrent"))
        continue;
      return Refuse("the front door does not take clause 'order(" + C.Args + ")'");
    }
    if (N == "collapse") {
      unsigned V = 0;
      if (!isIntegerLiteral(C.Args, V) || V < 1 || V > 3)
        return Refuse("the front door takes 'collapse' with an integer from 1 to 3, not '" +
                      C.Args + "'");
      if (V > 1)
        Out.push_back("collapse(" + std::to_string(V) + ")");
      continue;
    }
    if (N == "schedule") {
      llvm::StringRef A = C.Args;
      if (size_t Colon = A.find(':'); Colon != llvm::StringRef::npos)
        A = A.drop_front(Colon + 1); // monotonic:, nonmonotonic:, simd:
      std::vector<std::string> Parts = splitList(A);
      if (Parts.empty() || Parts.size() > 2)
        return Refuse("the front door does not take clause 'schedule(" + C.Args + ")'");
      llvm::StringRef Kind = Parts[0];
      unsigned Chunk = 0;
      bool LiteralChunk = Parts.size() == 2 && isIntegerLiteral(Parts[1], Chunk) && Chunk > 0;
      if (Kind == "static") {
        if (LiteralChunk)
          Out.push_back("schedule(cyclic, " + std::to_string(Chunk) + ")");
      } else if (Kind == "dynamic" || Kind == "guided") {
        Out.push_back(LiteralChunk ? "schedule(dynamic, " + std::to_string(Chunk) + ")"
                                   : "schedule(dynamic)");
      } else if (Kind != "auto" && Kind != "runtime") {
        return Refuse("the front door does not take clause 'schedule(" + C.Args + ")'");
      }
      continue;
    }
    if (N == "reduction") {
      llvm::StringRef A = C.Args;
      size_t Colon = topColon(A);
      // An operator with "::" (a user-defined reduction's qualified name) is not taken below.
      if (Colon == llvm::StringRef::npos)
        return Refuse("the front door does not take clause 'reduction(" + C.Args + ")'");
      llvm::StringRef Op = A.take_front(Colon).trim();
      if (size_t Comma = Op.find(','); Comma != llvm::StringRef::npos) {
        llvm::StringRef Modifier = Op.take_front(Comma).trim();
        if (Modifier != "default")
          return Refuse("the front door does not take the reduction modifier '" + Modifier.str() +
                        "'");
        Op = Op.drop_front(Comma + 1).trim();
      }
      std::string To;
      if (Op == "+" || Op == "-")
        To = "+";
      else if (Op == "*" || Op == "&" || Op == "|" || Op == "^" || Op == "min" || Op == "max")
        To = Op.str();
      else
        return Refuse("the front door does not take the reduction operator '" + Op.str() + "'");
      std::vector<std::string> Vars = splitList(A.drop_front(Colon + 1));
      if (Vars.empty())
        return Refuse("clause 'reduction(" + C.Args + ")' names no variable");
      std::vector<std::string> New;
      for (const std::string &V : Vars) {
        if (!isIdentifier(V))
          return Refuse("the front door takes reductions over variables, not '" + V + "'");
        // A region's reduction and its loop's may name the same variable.
        auto [It, First] = ReduceOp.emplace(V, To);
        if (!First && It->second != To)
          return Refuse("'" + V + "' is reduced with both '" + It->second + "' and '" + To + "'");
        if (First)
          New.push_back(V);
      }
      if (!New.empty())
        Reduce.push_back("reduce(" + To + ": " + llvm::join(New, ", ") + ")");
      continue;
    }
    return Refuse("the front door does not take clause '" + C.Name + "'");
  }
  llvm::append_range(Out, Reduce);
  return llvm::join(Out, ", ");
}

OmpConversion clustrix::convertOpenMPLoops(llvm::StringRef Text, const std::set<unsigned> &Keep) {
  OmpConversion Result;
  Result.Text = Text.str();
  if (!mayContainOpenMP(Text))
    return Result;
  std::vector<Tok> Toks = Lexer(Text).run();
  StmtWalker W(Text, Toks);

  // Line and column of an offset, from a table of line starts.
  std::vector<unsigned> LineStarts = {0};
  for (unsigned I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
  auto LineCol = [&](unsigned Off, unsigned &Line, unsigned &Col) {
    auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Off);
    Line = static_cast<unsigned>(It - LineStarts.begin());
    Col = Off - *(It - 1) + 1;
  };

  // Edits are collected, then applied from the end, so that offsets stay valid.
  struct Edit {
    unsigned B, E;
    std::string Repl;
  };
  std::vector<Edit> Edits;
  std::vector<bool> Consumed(Toks.size(), false);

  auto Fill = [&](OmpLoop &L, const OmpDirective &D, size_t DirTok) {
    L.Offset = Toks[DirTok].Begin;
    LineCol(L.Offset, L.Line, L.Column);
    for (const OmpClause &C : D.Clauses) {
      L.Clauses.push_back(C);
      std::vector<std::string> Items;
      llvm::StringRef Args = C.Args;
      if (C.Name == "lastprivate" || C.Name == "linear")
        if (size_t Colon = topColon(Args); Colon != llvm::StringRef::npos) {
          // lastprivate(conditional: x), linear(x: step)
          if (C.Name == "lastprivate")
            Args = Args.drop_front(Colon + 1);
          else
            Args = Args.take_front(Colon);
        }
      if (C.Name == "reduction")
        if (size_t Colon = topColon(Args); Colon != llvm::StringRef::npos)
          Args = Args.drop_front(Colon + 1);
      Items = splitList(Args);
      if (C.Name == "private")
        llvm::append_range(L.Private, Items);
      else if (C.Name == "firstprivate")
        llvm::append_range(L.FirstPrivate, Items);
      else if (C.Name == "lastprivate")
        llvm::append_range(L.LastPrivate, Items);
      else if (C.Name == "shared")
        llvm::append_range(L.Shared, Items);
      else if (C.Name == "linear")
        llvm::append_range(L.Linear, Items);
      else if (C.Name == "reduction")
        llvm::append_range(L.Reduction, Items);
      else if (C.Name == "default")
        L.Default = C.Args;
      else if (C.Name == "collapse") {
        unsigned V = 1;
        if (isIntegerLiteral(C.Args, V) && V >= 1)
          L.Collapse = V;
      }
    }
  };

  // The loop statement at I: its extent, and whether it holds another OpenMP directive.
  auto TakeLoop = [&](OmpLoop &L, size_t I) -> bool {
    // `#endif` may close a conditional around the directive alone (`#ifdef OPEN` ... pragma
    // ... `#endif`): the annotation is then inside the same conditional.
    while (I < Toks.size() && Toks[I].K == Tok::Directive &&
           llvm::StringRef(directiveText(W.text(I))).ltrim(" #").starts_with("endif"))
      ++I;
    if (!W.is(I, "for")) {
      L.WhyNot = "the directive is not followed by a 'for' loop";
      return false;
    }
    std::vector<size_t> Inner;
    std::optional<size_t> End = W.skipStmt(I, Inner);
    if (!End) {
      L.WhyNot = "the loop after the directive could not be delimited in the text (a macro or "
                 "a conditional directive splits it)";
      return false;
    }
    L.LoopBegin = Toks[I].Begin;
    L.LoopEnd = Toks[*End - 1].End;
    for (size_t D : Inner) {
      llvm::StringRef DT = W.text(D);
      if (std::optional<OmpDirective> OD = parseOmp(DT)) {
        L.WhyNot =
            "the loop holds '#pragma omp " + OD->name() + "', which the front door does not take";
        return false;
      }
      if (DT.ltrim("# \t").starts_with("include")) {
        L.WhyNot = "the loop holds an '#include' line";
        return false;
      }
    }
    for (size_t K = I; K < *End; ++K)
      Consumed[K] = true;
    return true;
  };

  auto Attribute = [&](OmpLoop &L) {
    std::string Clauses = annotationClauses(L.Clauses, L.WhyNot);
    if (!L.WhyNot.empty())
      return false;
    L.Attribute = Clauses.empty() ? "[[cluster::gpu_parallel]]"
                                  : "[[cluster::gpu_parallel(" + Clauses + ")]]";
    return true;
  };

  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].K != Tok::Directive || Consumed[I])
      continue;
    std::optional<OmpDirective> D = parseOmp(W.text(I));
    if (!D)
      continue;
    std::string Name = D->name();
    if (Name == "threadprivate") {
      llvm::append_range(Result.ThreadPrivate, splitList(D->Argument));
      continue;
    }
    bool ParallelFor = Name == "parallel for" || Name == "parallel for simd";
    bool Region = Name == "parallel";
    bool LoneFor = Name == "for" || Name == "for simd";
    if (!ParallelFor && !Region && !LoneFor)
      continue;
    if (!D->Error.empty()) {
      if (Region)
        continue;
      OmpLoop L;
      L.Directive = Name;
      Fill(L, *D, I);
      L.WhyNot = "the directive's clauses could not be read: " + D->Error;
      Result.Loops.push_back(std::move(L));
      continue;
    }
    if (ParallelFor) {
      OmpLoop L;
      L.Directive = Name;
      Fill(L, *D, I);
      if (TakeLoop(L, I + 1) && Attribute(L)) {
        L.Taken = true;
        if (!Keep.count(L.Line))
          Edits.push_back({Toks[I].Begin, Toks[I].End, L.Attribute});
      }
      Result.Loops.push_back(std::move(L));
      continue;
    }
    if (Region) {
      // `#pragma omp parallel` { (`#pragma omp for` loop | `#pragma omp barrier`)... }: loops
      // each ended by a barrier (its implicit one, or an explicit one after a `nowait`) are that
      // sequence of parallel loops. Nothing else may be in the block: code there runs on every
      // thread.
      if (!W.is(I + 1, "{"))
        continue;
      struct Item {
        size_t Dir;
        OmpDirective D;
        bool Barrier; ///< A barrier ends it.
      };
      std::vector<Item> Items;
      size_t J = I + 2;
      bool Shape = true;
      while (Shape && J < Toks.size() && !W.is(J, "}")) {
        std::optional<OmpDirective> F;
        if (Toks[J].K == Tok::Directive)
          F = parseOmp(W.text(J));
        if (!F || !F->Error.empty()) {
          Shape = false;
          break;
        }
        if (F->name() == "barrier" && !Items.empty()) {
          Items.back().Barrier = true;
          ++J;
          continue;
        }
        if (F->name() != "for" && F->name() != "for simd") {
          Shape = false;
          break;
        }
        std::vector<size_t> Inner;
        std::optional<size_t> End = W.skipStmt(J + 1, Inner);
        if (!End || !Inner.empty() || !W.is(J + 1, "for")) {
          Shape = false;
          break;
        }
        bool NoWait =
            llvm::any_of(F->Clauses, [](const OmpClause &C) { return C.Name == "nowait"; });
        Items.push_back({J, *F, !NoWait});
        J = *End;
      }
      if (!Shape || J >= Toks.size() || Items.empty())
        continue; // each `for` directive is reported on its own below
      bool Barriers = true;
      for (size_t K = 0; K + 1 < Items.size(); ++K)
        Barriers &= Items[K].Barrier;
      if (!Barriers)
        continue; // loops that may overlap: not a sequence of loops
      std::vector<OmpLoop> Loops;
      bool AllTaken = true, AnyKept = false;
      for (const Item &It : Items) {
        OmpLoop L;
        L.Directive = "parallel + " + It.D.name();
        unsigned RegionColumn = 0;
        LineCol(Toks[I].Begin, L.RegionLine, RegionColumn);
        Fill(L, *D, I);        // the region's clauses apply to each of its loops,
        Fill(L, It.D, It.Dir); // then the loop's own; the place is the loop's directive
        Consumed[It.Dir] = true;
        if (TakeLoop(L, It.Dir + 1) && Attribute(L)) {
          L.Taken = true;
          AnyKept |= Keep.count(L.Line) > 0;
        } else {
          AllTaken = false;
        }
        Loops.push_back(std::move(L));
      }
      for (OmpLoop &L : Loops) {
        if (!AllTaken && L.Taken) {
          L.Taken = false;
          L.WhyNot = "another loop of its 'parallel' region is not taken";
        }
      }
      if (AllTaken && !AnyKept) {
        Edits.push_back({Toks[I].Begin, Toks[I].End, ""});
        for (size_t K = 0; K < Items.size(); ++K)
          Edits.push_back({Toks[Items[K].Dir].Begin, Toks[Items[K].Dir].End, Loops[K].Attribute});
        // The explicit barriers go too: the loops run one after the other.
        for (size_t B = I + 2; B < J; ++B)
          if (Toks[B].K == Tok::Directive &&
              !llvm::any_of(Items, [&](const Item &It) { return It.Dir == B; }))
            if (std::optional<OmpDirective> BD = parseOmp(W.text(B)); BD && BD->name() == "barrier")
              Edits.push_back({Toks[B].Begin, Toks[B].End, ""});
      }
      llvm::append_range(Result.Loops, std::move(Loops));
      continue;
    }
    // A `for` directive outside the one shape the door takes.
    OmpLoop L;
    L.Directive = Name;
    Fill(L, *D, I);
    L.WhyNot = "'#pragma omp " + Name +
               "' is in a 'parallel' region that holds more than worksharing loops each ended "
               "by a barrier, or in none in this function";
    Result.Loops.push_back(std::move(L));
  }

  llvm::sort(Edits, [](const Edit &A, const Edit &B) { return A.B > B.B; });
  for (const Edit &E : Edits)
    overwrite(Result.Text, E.B, E.E, E.Repl);
  Result.Changed = !Edits.empty();
  return Result;
}
