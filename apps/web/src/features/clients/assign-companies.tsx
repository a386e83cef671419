import { useEffect, useMemo, useState } from 'react';
import { App, Button, Flex, Select, Skeleton, Table, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './texts';
import { LoadError } from '../../components/load-error';
import { errorText } from '../../lib/form-rules';
import { assignedCompaniesQuery, companyChoicesQuery, saveAssignedCompanies } from './api';

type Company = { id: number; name: string; businessId: string };

/**
 * Assign companies (spec §2): the companies a consultant-type client sees and works on. The
 * provider admin chooses them among the company clients (searched by the API) and saves the list
 * as a whole; the API replaces it in one transaction.
 */
export function AssignCompanies({ clientId }: { clientId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const assigned = useQuery(assignedCompaniesQuery(clientId));
  const [search, setSearch] = useState('');
  const choices = useQuery(companyChoicesQuery(search.trim()));
  const [chosen, setChosen] = useState<number[] | null>(null);
  // Names of every company seen (saved or found), so a chosen one keeps its label while searching.
  const [known, setKnown] = useState<Map<number, Company>>(new Map());

  useEffect(() => {
    const found: Company[] = [
      ...(assigned.data?.companies ?? []),
      ...(choices.data?.items ?? []).map((c) => ({
        id: c.id,
        name: c.companyName,
        businessId: c.businessId,
      })),
    ];
    if (!found.length) return;
    setKnown((prev) => {
      const next = new Map(prev);
      for (const c of found) next.set(c.id, c);
      return next;
    });
  }, [assigned.data, choices.data]);

  const saved = useMemo(() => assigned.data?.companies.map((c) => c.id) ?? [], [assigned.data]);
  const value = chosen ?? saved;
  const dirty =
    chosen !== null && (chosen.length !== saved.length || chosen.some((id) => !saved.includes(id)));

  const save = useMutation({
    mutationFn: saveAssignedCompanies,
    onSuccess: (res) => {
      queryClient.setQueryData(assignedCompaniesQuery(clientId).queryKey, {
        consultantClientId: res.consultantClientId,
        companies: res.companies,
      });
      setChosen(null);
      void message.success(t(`errors.${res.code}`, { defaultValue: res.message }));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  if (assigned.isLoading) return <Skeleton active />;
  if (assigned.isError) return <LoadError query={assigned} />;

  const options = [...new Set([...value, ...(choices.data?.items ?? []).map((c) => c.id)])].map((id) => {
    const c = known.get(id);
    return { value: id, label: c ? `${c.name} (${c.businessId})` : String(id) };
  });

  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }} data-testid="assign-companies">
      <Typography.Text type="secondary">{t('clients.assign.help')}</Typography.Text>
      <Flex gap={8} align="start" wrap>
        <Select<number[]>
          mode="multiple"
          style={{ flex: 1, minWidth: 320 }}
          aria-label={t('clients.assign.companies')}
          placeholder={t('clients.assign.placeholder')}
          value={value}
          onChange={setChosen}
          options={options}
          showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
          onBlur={() => setSearch('')}
          loading={choices.isFetching}
          notFoundContent={choices.isError ? errorText(t, choices.error) : t('clients.assign.noChoices')}
          data-testid="assign-select"
        />
        <Button
          type="primary"
          disabled={!dirty}
          loading={save.isPending}
          onClick={() => save.mutate({ clientId, clientIds: value })}
          data-testid="assign-save"
        >
          {t('common.save')}
        </Button>
      </Flex>
      <Table<Company>
        rowKey="id"
        size="middle"
        pagination={false}
        dataSource={assigned.data?.companies ?? []}
        locale={{ emptyText: t('clients.assign.empty') }}
        title={() => <Typography.Text strong>{t('clients.assign.saved')}</Typography.Text>}
        columns={[
          { title: t('clients.columns.companyName'), dataIndex: 'name' },
          { title: t('clients.columns.businessId'), dataIndex: 'businessId', width: 160 },
        ]}
        data-testid="assigned-table"
      />
    </Flex>
  );
}
