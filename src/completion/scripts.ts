import type { CompletionFlag, CompletionModel, ValueKind } from './model.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * Completion scripts are four lookups generated from the command tree
 * (subcommands, flags, a flag's value, an argument's value) and a small driver
 * per shell that walks the words typed so far. Profile names are read at
 * completion time through `payctl profiles list`, so they follow the config.
 */
export function completionScript(shell: Shell, model: CompletionModel): string {
  switch (shell) {
    case 'bash':
      return `${header(shell)}${posixLookups(model)}\n${BASH_DRIVER}`;
    case 'zsh':
      return `#compdef payctl\n${header(shell)}${posixLookups(model)}\n${ZSH_DRIVER}`;
    case 'fish':
      return `${header(shell)}${fishLookups(model)}\n${FISH_DRIVER}`;
  }
}

const INSTALL: Record<Shell, string> = {
  bash: 'source <(payctl completion bash)   # or save it as ~/.local/share/bash-completion/completions/payctl',
  zsh: 'payctl completion zsh > "${fpath[1]}/_payctl"   # then start a new shell (compinit must run in ~/.zshrc)',
  fish: 'payctl completion fish > ~/.config/fish/completions/payctl.fish',
};

const header = (shell: Shell) => `# payctl ${shell} completion, generated from payctl's command tree: do not edit.\n# Install: ${INSTALL[shell]}\n`;

/** A value in single quotes for bash and zsh. */
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** A value in single quotes for fish. */
const fq = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** One line of help text: the shells show a line per candidate. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const describeKind = (kind: ValueKind | undefined) =>
  !kind ? 'none' : kind.type === 'choices' ? `choices ${kind.values.join(' ')}` : kind.type;

/** Long spelling for the list of flags offered; every spelling for parsing what was typed. */
const offeredName = (flag: CompletionFlag) => flag.names.find((name) => name.startsWith('--')) ?? flag.names[0];

interface Lookups {
  subcommands: Array<[string, Array<[string, string]>]>;
  isSubcommand: string[];
  flags: Array<[string, Array<[string, string]>]>;
  globalFlags: Array<[string, string]>;
  flagValues: Array<[string, string]>;
  globalFlagValues: Array<[string, string]>;
  argValues: Array<[string, string]>;
}

function lookups(model: CompletionModel): Lookups {
  const key = (path: string[]) => path.join(' ');
  const flagPatterns = (prefix: string, flags: CompletionFlag[]) =>
    flags.filter((flag) => flag.value).flatMap((flag) => flag.names.map((name): [string, string] => [`${prefix}|${name}`, describeKind(flag.value)]));
  return {
    subcommands: model.nodes.filter((n) => n.subcommands.length).map((n) => [key(n.path), n.subcommands.map((s) => [s.name, oneLine(s.summary)])]),
    isSubcommand: model.nodes.flatMap((n) => n.subcommands.map((s) => `${key(n.path)}|${s.name}`)),
    flags: model.nodes.filter((n) => n.flags.length).map((n) => [key(n.path), n.flags.map((f) => [offeredName(f), oneLine(f.description)])]),
    globalFlags: model.globalFlags.map((f) => [offeredName(f), oneLine(f.description)]),
    flagValues: model.nodes.flatMap((n) => flagPatterns(key(n.path), n.flags)),
    globalFlagValues: flagPatterns('', model.globalFlags),
    argValues: model.nodes.flatMap((n) => n.args.flatMap((arg, i): Array<[string, string]> => (arg ? [[`${key(n.path)}|${i}`, describeKind(arg)]] : []))),
  };
}

function posixLookups(model: CompletionModel): string {
  const l = lookups(model);
  const lines = (pairs: Array<[string, string]>) => pairs.map(([name, text]) => sq(`${name}:${text}`)).join(' ');
  return `
# Subcommands of a command path, one "name:summary" a line.
__payctl_subcommands() {
  case "$1" in
${l.subcommands.map(([path, subs]) => `    ${sq(path)}) printf '%s\\n' ${lines(subs)} ;;`).join('\n')}
  esac
}

__payctl_is_subcommand() {
  case "$1|$2" in
    ${l.isSubcommand.map(sq).join('|')}) return 0 ;;
  esac
  return 1
}

# Flags of a command path, one "flag:description" a line.
__payctl_flags() {
  case "$1" in
${l.flags.map(([path, flags]) => `    ${sq(path)}) printf '%s\\n' ${lines(flags)} ;;`).join('\n')}
  esac
  printf '%s\\n' ${lines(l.globalFlags)}
}

# What the value of flag $2 of command path $1 can be: none, any, files, profiles or "choices V...".
__payctl_flag_value() {
  case "$1|$2" in
${l.flagValues.map(([pattern, kind]) => `    ${sq(pattern)}) echo ${sq(kind)} ;;`).join('\n')}
${l.globalFlagValues.map(([pattern, kind]) => `    *${sq(pattern)}) echo ${sq(kind)} ;;`).join('\n')}
    *) echo none ;;
  esac
}

# What argument number $2 (from 0) of command path $1 can be.
__payctl_arg_value() {
  case "$1|$2" in
${l.argValues.map(([pattern, kind]) => `    ${sq(pattern)}) echo ${sq(kind)} ;;`).join('\n')}
    *) echo any ;;
  esac
}
`;
}

/** Walks the typed words: the command path, the number of arguments, and a flag still waiting for its value. */
const POSIX_WALK = `    if [[ -n $expect ]]; then expect=""; continue; fi
    case "$word" in
      -*=*) ;;
      -*) [[ $(__payctl_flag_value "$cmdpath" "$word") != none ]] && expect="$word" ;;
      *) if __payctl_is_subcommand "$cmdpath" "$word"; then cmdpath="\${cmdpath:+$cmdpath }$word"; else nargs=$((nargs + 1)); fi ;;
    esac`;

const BASH_DRIVER = `_payctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" nargs=0 expect="" word i kind line
  local -a offered=()
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
${POSIX_WALK}
  done
  if [[ -n $expect ]]; then
    kind="$(__payctl_flag_value "$cmdpath" "$expect")"
  elif [[ $cur == -* ]]; then
    while IFS= read -r line; do offered+=("\${line%%:*}"); done < <(__payctl_flags "$cmdpath")
    mapfile -t COMPREPLY < <(compgen -W "\${offered[*]}" -- "$cur")
    return
  elif [[ -n $(__payctl_subcommands "$cmdpath") ]]; then
    while IFS= read -r line; do offered+=("\${line%%:*}"); done < <(__payctl_subcommands "$cmdpath")
    mapfile -t COMPREPLY < <(compgen -W "\${offered[*]}" -- "$cur")
    return
  else
    kind="$(__payctl_arg_value "$cmdpath" "$nargs")"
  fi
  case "$kind" in
    'choices '*) mapfile -t COMPREPLY < <(compgen -W "\${kind#choices }" -- "$cur") ;;
    profiles) mapfile -t COMPREPLY < <(compgen -W "$(command payctl profiles list -o tsv --fields name 2>/dev/null)" -- "$cur") ;;
    files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  esac
}
complete -F _payctl payctl
`;

const ZSH_DRIVER = `_payctl() {
  local cur="\${words[CURRENT]}" cmdpath="" nargs=0 expect="" word i kind
  local -a candidates
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
${POSIX_WALK}
  done
  if [[ -n $expect ]]; then
    kind="$(__payctl_flag_value "$cmdpath" "$expect")"
  elif [[ $cur == -* ]]; then
    candidates=("\${(@f)$(__payctl_flags "$cmdpath")}")
    _describe -t options 'payctl flag' candidates
    return
  elif [[ -n $(__payctl_subcommands "$cmdpath") ]]; then
    candidates=("\${(@f)$(__payctl_subcommands "$cmdpath")}")
    _describe -t commands 'payctl command' candidates
    return
  else
    kind="$(__payctl_arg_value "$cmdpath" "$nargs")"
  fi
  case "$kind" in
    'choices '*) candidates=(\${=\${kind#choices }}); compadd -a candidates ;;
    profiles) candidates=(\${(f)"$(command payctl profiles list -o tsv --fields name 2>/dev/null)"}); compadd -a candidates ;;
    files) _files ;;
  esac
}

if [[ "\${funcstack[1]}" == _payctl ]]; then
  _payctl "$@"
else
  compdef _payctl payctl
fi
`;

function fishLookups(model: CompletionModel): string {
  const l = lookups(model);
  const lines = (pairs: Array<[string, string]>) => pairs.map(([name, text]) => fq(`${name}\t${text}`)).join(' ');
  return `
# Subcommands of a command path, one "name<TAB>summary" a line.
function __payctl_subcommands
    switch "$argv[1]"
${l.subcommands.map(([path, subs]) => `        case ${fq(path)}\n            printf '%s\\n' ${lines(subs)}`).join('\n')}
    end
end

function __payctl_is_subcommand
    switch "$argv[1]|$argv[2]"
        case ${l.isSubcommand.map(fq).join(' ')}
            return 0
    end
    return 1
end

# Flags of a command path, one "flag<TAB>description" a line.
function __payctl_flags
    switch "$argv[1]"
${l.flags.map(([path, flags]) => `        case ${fq(path)}\n            printf '%s\\n' ${lines(flags)}`).join('\n')}
    end
    printf '%s\\n' ${lines(l.globalFlags)}
end

# What the value of flag $argv[2] of command path $argv[1] can be: none, any, files, profiles or "choices V...".
function __payctl_flag_value
    switch "$argv[1]|$argv[2]"
${l.flagValues.map(([pattern, kind]) => `        case ${fq(pattern)}\n            echo ${fq(kind)}`).join('\n')}
${l.globalFlagValues.map(([pattern, kind]) => `        case ${fq(`*${pattern}`)}\n            echo ${fq(kind)}`).join('\n')}
        case '*'
            echo none
    end
end

# What argument number $argv[2] (from 0) of command path $argv[1] can be.
function __payctl_arg_value
    switch "$argv[1]|$argv[2]"
${l.argValues.map(([pattern, kind]) => `        case ${fq(pattern)}\n            echo ${fq(kind)}`).join('\n')}
        case '*'
            echo any
    end
end
`;
}

const FISH_DRIVER = `function __payctl_complete
    set -l typed (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmdpath ''
    set -l nargs 0
    set -l expect ''
    for word in $typed[2..-1]
        if test -n "$expect"
            set expect ''
            continue
        end
        switch $word
            case '-*=*'
            case '-*'
                if test (__payctl_flag_value "$cmdpath" $word) != none
                    set expect $word
                end
            case '*'
                if __payctl_is_subcommand "$cmdpath" $word
                    set cmdpath (string trim -- "$cmdpath $word")
                else
                    set nargs (math $nargs + 1)
                end
        end
    end
    set -l kind
    set -l subcommands (__payctl_subcommands "$cmdpath")
    if test -n "$expect"
        set kind (__payctl_flag_value "$cmdpath" $expect)
    else if string match -q -- '-*' "$cur"
        __payctl_flags "$cmdpath"
        return
    else if test (count $subcommands) -gt 0
        printf '%s\\n' $subcommands
        return
    else
        set kind (__payctl_arg_value "$cmdpath" $nargs)
    end
    switch "$kind"
        case 'choices *'
            string split ' ' -- (string replace 'choices ' '' -- "$kind")
        case profiles
            command payctl profiles list -o tsv --fields name 2>/dev/null
        case files
            __fish_complete_path "$cur"
    end
end

complete -c payctl -f -a '(__payctl_complete)'
`;
