#!/usr/bin/perl
# Fails on a chained QString::arg() in the product's sources (core/, ui/, app/): `.arg(a).arg(b)`, on one
# line or across lines. The second arg() re-scans what the first put in, so a name holding %2 takes the
# next argument (issue 44): fill every placeholder in one pass, arg(a, b, ...) with strings
# (QString::number / QLocale().toString for numbers) or named placeholders replaced at once.
# Usage: check_arg_chains.pl SOURCE_DIR
use strict;
use warnings;
use File::Find;

my $root = shift // die "usage: $0 SOURCE_DIR\n";
my @files;
find(sub { push @files, $File::Find::name if /\.(cpp|h)$/ }, map { "$root/$_" } qw(core ui app));
my $bad = 0;
for my $f (sort @files) {
    open my $fh, '<', $f or die "$f: $!\n";
    local $/;
    my $t = <$fh>;
    close $fh;
    # Comments and the insides of string and character literals become blanks (newlines kept, so
    # line numbers stay): only code is searched. A digit separator (1'000) is no character literal.
    $t =~ s{(//[^\n]*|/\*.*?\*/|R"([^(]*)\(.*?\)\2"|"(?:[^"\\\n]|\\.)*"|(?<![0-9A-Za-z_])'(?:[^'\\\n]|\\.)+')}
           {my $m = $1; (my $b = $m) =~ s/[^\n]/ /g; substr($m, 0, 1) =~ /["'R]/ ? substr($m, 0, 1) . substr($b, 1) : $b}gse;
    while ($t =~ /\.arg(\((?:[^()]++|(?1))*\))\s*\.arg\(/g) {
        my $line = 1 + (substr($t, 0, $-[0]) =~ tr/\n//);
        my $name = substr($f, length($root) + 1);
        print "$name:$line: chained QString::arg(): compose in one pass (one arg(a, b, ...) call)\n";
        $bad++;
    }
}
print "$bad chained arg() call(s) in ", scalar(@files), " files\n";
exit($bad ? 1 : 0);
