# Prints the candidates zsh's own completion system (compinit) offers for a command line:
#   zsh -f zsh-capture.zsh COMPLETION_SCRIPT 'payctl withdraw pix --pix-key-type ' DUMP_FILE
# An interactive zsh runs on a pseudo-terminal (zpty); compadd is wrapped to print what it adds.
# compinit reads the completion functions zsh has from DUMP_FILE (made once by `compinit -d`):
# finding them reads every file of zsh's function path, nine tenths of a run without it.
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='' RPROMPT=''; autoload -Uz compinit; compinit -u -d ${(q)3}"
zpty -w z "source ${(q)1}"
zpty -w z "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
# The markers are written split ("<""c>") so that the echo of these lines never matches them.
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; (( $#__hits )) && print -rl -- "<""c>"${^__hits}; }'
zpty -w z 'comppostfuncs=( __done ); __done () { print -r -- "<""end>"; exit }'
zpty -w -n z "$2"$'\t'
local line
while zpty -r z line; do
  line=${line%$'\n'}; line=${line%$'\r'}
  [[ $line == *'<end>'* ]] && break
  [[ $line == *'<c>'* ]] && print -r -- ${line##*<c>}
done
zpty -d z
